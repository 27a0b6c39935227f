import Synchronization

/// The files of a batch waiting for a loader thread (queue isolation), taken in file order.
final class LoadQueue<Item: Sendable>: Sendable {
    private let items: Mutex<ArraySlice<Item>>

    init(_ items: [Item]) {
        self.items = Mutex(items[...])
    }

    func next() -> Item? {
        items.withLock { $0.popFirst() }
    }
}
