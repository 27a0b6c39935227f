import CMemoryGuard
import FoundationEssentials
import Synchronization
import WidgetSupport

/// Charges each provider for the heap memory its code holds, and notices when it goes over its limit.
///
/// The host's executable replaces the malloc family (the CMemoryGuard target); a provider's calls run
/// tagged with the provider's slot, so what they allocate, and have not freed, counts against it.
/// What a provider allocates on threads of its own (a `Task`, a queue it made) is not charged: this
/// in-process guard detects and quarantines, it cannot enforce (see docs/ISOLATION.md).
public enum MemoryGuard {
    /// Whether allocations go through the guard in this process.
    public static let isActive: Bool = memory_guard_active()

    /// The default limit, iOS's for a widget extension: 30 MiB.
    public static let defaultLimit: Int64 = 30 << 20
    /// The slots providers may have (slot 0 is the host's own).
    static let slotCount = Int(MEMORY_GUARD_SLOTS) - 1

    private struct Slots {
        var next: UInt32 = 1
        var released: [UInt32] = []
    }
    private static let slots = Mutex(Slots())

    /// A fresh slot, counting from zero, for one run of a provider; 0 (uncharged) when every slot is
    /// taken. A slot is reused only after `release`, once nothing it charged is still held.
    static func openSlot(limit: Int64) -> UInt32 {
        let slot: UInt32 = slots.withLock { slots in
            if let slot = slots.released.popLast() { return slot }
            guard slots.next < UInt32(MEMORY_GUARD_SLOTS) else { return 0 }
            defer { slots.next += 1 }
            return slots.next
        }
        if slot == 0 {
            HostLog.warning("all \(MEMORY_GUARD_SLOTS - 1) memory guard slots are in use; a provider that has none is not run")
        } else {
            memory_guard_open_slot(slot, limit)
        }
        return slot
    }

    /// Gives back a slot whose blocks have all been freed.
    static func release(_ slot: UInt32) {
        guard slot != 0 else { return }
        slots.withLock { $0.released.append(slot) }
    }

    /// Runs `body` with this thread's allocations charged to `slot`.
    static func charging<T>(_ slot: UInt32, _ body: () throws -> T) rethrows -> T {
        let previous = memory_guard_enter(slot)
        defer { memory_guard_exit(previous) }
        return try body()
    }

    static func live(_ slot: UInt32) -> Int64 { max(0, memory_guard_live(slot)) }
    static func peak(_ slot: UInt32) -> Int64 { memory_guard_peak(slot) }
    static func exceeded(_ slot: UInt32) -> Bool { memory_guard_exceeded(slot) }
}
