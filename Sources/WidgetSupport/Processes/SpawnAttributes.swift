import Glibc

/// posix_spawn's attributes for a child that starts clean, as every program the host starts does
/// (a worker, the zygote, a tool): every signal at its default and none blocked, whatever this
/// process set for its own, with `flags` besides (a session or a process group of its own).
package final class SpawnAttributes {
    package var value = posix_spawnattr_t()

    package init(flags: Int16) {
        posix_spawnattr_init(&value)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        var noSignal = sigset_t()
        sigemptyset(&noSignal)
        posix_spawnattr_setsigdefault(&value, &everySignal)
        posix_spawnattr_setsigmask(&value, &noSignal)
        posix_spawnattr_setflags(&value, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | flags)
    }

    deinit { posix_spawnattr_destroy(&value) }
}
