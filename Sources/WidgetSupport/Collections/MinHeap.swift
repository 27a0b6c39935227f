/// An element of a `MinHeap`: `precedes` orders them, earliest first.
@_spi(WidgetsInternal) public protocol HeapElement {
    func precedes(_ other: Self) -> Bool
}

/// A binary min-heap in an array: the clock's timers and the timeline engine's due events.
///
/// Public as SPI, and inlinable, because the engine's heap is used from another module: `package`
/// declarations are not specialized across modules (Swift 6.3), and unspecialized generic code cost
/// every engine event a witness-table call per comparison (the engine's benchmark twice as slow).
/// Modules of this package import it with `@_spi(WidgetsInternal)`; no one else sees it.
@_spi(WidgetsInternal) public struct MinHeap<Element: HeapElement> {
    /// The elements, in heap order (only `removeAll(where:)` and the heap operations should change them).
    public var elements: [Element] = []

    @inlinable public init() {}

    @inlinable public var isEmpty: Bool { elements.isEmpty }
    @inlinable public var count: Int { elements.count }
    @inlinable public var first: Element? { elements.first }

    @inlinable public mutating func push(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child].precedes(elements[parent]) else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    @inlinable public mutating func popFirst() -> Element? {
        guard !elements.isEmpty else { return nil }
        let first = elements[0]
        let last = elements.removeLast()
        guard !elements.isEmpty else { return first }
        elements[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < elements.count, elements[left].precedes(elements[smallest]) { smallest = left }
            if right < elements.count, elements[right].precedes(elements[smallest]) { smallest = right }
            guard smallest != parent else { return first }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
    }

    /// Drops the elements `isStale` picks, keeping the rest a valid heap.
    @inlinable public mutating func removeAll(where isStale: (Element) -> Bool) {
        elements.removeAll(where: isStale)
        elements.sort { $0.precedes($1) }  // a sorted array is a valid heap
    }
}
