import CHostShims
import FoundationEssentials
import Glibc
import WidgetWire

// Threads, a lock and a condition on pthreads: what the host took from Foundation's `Thread`,
// `NSLock` and `NSCondition`, which live in the Foundation that brings ICU with it (the host and
// the CLI are built on FoundationEssentials alone; docs/BENCHMARKS.md, "The widgets program").

/// A mutual-exclusion lock, for state a `Mutex` cannot hold (kept beside other locks' state, or
/// taken across calls).
package class Lock: @unchecked Sendable {
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package final func lock() { pthread_mutex_lock(mutex) }
    package final func unlock() { pthread_mutex_unlock(mutex) }

    package final func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock with a condition to wait on, as `NSCondition` is: `wait()` releases the lock while it
/// waits and holds it again when it returns; `wait(until:)` waits for the wall clock's date.
package final class Condition: Lock, @unchecked Sendable {
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package override init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)  // CLOCK_REALTIME: `wait(until:)` takes a wall-clock date
        super.init()
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
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

/// Runs `body` on a new detached thread named `name` (its first 15 bytes, whole characters, show in
/// `ps` and `top`), with a stack of `stackSize` bytes if given; returns the thread, or nil, said in
/// the log, when the system makes no more (a cgroup's pids.max reached): the caller decides what it
/// cannot do without it.
@discardableResult
package func startThread(named name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
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
        // The whole characters that fit the kernel's 15 bytes.
        var shown = String.UnicodeScalarView()
        var bytes = 0
        for scalar in start.name.unicodeScalars {
            bytes += scalar.utf8.count
            guard bytes <= 15 else { break }
            shown.append(scalar)
        }
        _ = host_thread_set_name(String(shown))
        start.body()
        return nil
    }, start)
    guard status == 0 else {
        Unmanaged<Start>.fromOpaque(start).release()
        HostLog.log(.error, "cannot start the thread \(name): \(errnoText(status))")
        return nil
    }
    return thread
}

/// The calling thread's name ("widgets.clock": a thread is named after the one that made it until
/// it names itself); nil when the kernel gives none.
package var currentThreadName: String? {
    var buffer = [CChar](repeating: 0, count: 64)
    guard host_thread_name(&buffer, buffer.count) == 0 else { return nil }
    let name = decodedCString(buffer)
    return name.isEmpty ? nil : name
}


/// Work done in turn, in the order given, on a thread of its own started with the first: for a
/// process that keeps libdispatch's worker threads out (they bring its pool monitor, which wakes
/// the process every second for as long as it runs: `widgets desktop`, idle all day).
package final class SerialThread: @unchecked Sendable {
    private let name: String
    private let condition = Condition()
    private var jobs: [@Sendable () -> Void] = []
    private var started = false

    package init(named name: String) { self.name = name }

    /// Queues `job`; false when no thread could be started to do it (the job is not kept, and the
    /// next call tries again).
    @discardableResult
    package func async(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.withLock {
            if !started {
                guard startThread(named: name, { [self] in work() }) != nil else { return false }
                started = true
            }
            jobs.append(job)
            condition.signal()
            return true
        }
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
