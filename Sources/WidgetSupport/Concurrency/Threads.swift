import CHostShims
import FoundationEssentials
import Glibc

// Threads, a lock and a condition on pthreads: what the host took from Foundation's `Thread`,
// `NSLock` and `NSCondition`, which live in the Foundation that brings ICU with it (the host and
// the CLI are built on FoundationEssentials alone; docs/BENCHMARKS.md, "The widgets program").

/// A mutual-exclusion lock, for state a `Mutex` cannot hold (kept beside other locks' state, or
/// taken across calls).
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock with a condition to wait on, as `NSCondition` is: `wait()` releases the lock while it
/// waits and holds it again when it returns; `wait(until:)` waits for the wall clock's date.
package final class Condition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)  // CLOCK_REALTIME: `wait(until:)` takes a wall-clock date
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits for a signal, the lock held.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal until `date`, the lock held: false once the date has passed. A date
    /// past what a `timespec` holds is waited for as the farthest it does.
    @discardableResult
    package func wait(until date: Date) -> Bool {
        let seconds = min(max(date.timeIntervalSince1970, 0), Double(Int32.max) * 1000)
        var deadline = timespec()
        deadline.tv_sec = Int(seconds.rounded(.down))
        deadline.tv_nsec = min(Int((seconds - seconds.rounded(.down)) * 1e9), 999_999_999)
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    package func signal() { pthread_cond_signal(condition) }
    package func broadcast() { pthread_cond_broadcast(condition) }
}

/// Runs `body` on a new detached thread named `name` (at most 15 bytes show in `ps` and `top`),
/// with a stack of `stackSize` bytes if given; returns the thread.
@discardableResult
package func startThread(named name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) { (self.name, self.body) = (name, body) }
    }
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    var thread = pthread_t()
    let status = pthread_create(&thread, &attributes, { argument in
        let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
        _ = host_thread_set_name(String(decoding: start.name.utf8.prefix(15), as: UTF8.self))
        start.body()
        return nil
    }, start)
    // As Foundation's `Thread.start()` does: a process that cannot make a thread cannot go on.
    precondition(status == 0, "cannot start the thread \(name): \(String(cString: strerror(status)))")
    return thread
}

/// The calling thread's name ("widgets.clock"); nil when it has none but the program's.
package var currentThreadName: String? {
    var buffer = [CChar](repeating: 0, count: 64)
    guard host_thread_name(&buffer, buffer.count) == 0 else { return nil }
    let name = decodedCString(buffer)
    return name.isEmpty ? nil : name
}

/// Writes `text` whole to standard error (or another descriptor), as a program's diagnostics go.
package func writeWhole(_ text: String, to descriptor: Int32 = 2) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}
