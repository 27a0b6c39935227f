import CMemoryGuard
import Foundation
import Glibc
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

// MARK: - The timeline engine

/// Bytes glibc has handed out (arenas and mmapped blocks): what the process holds on the heap.
func heapInUse() -> Int {
    let info = mallinfo2()
    return Int(info.uordblks) + Int(info.hblkhd)
}

struct EngineResult {
    let instances: Int
    /// Engine memory per instance right after adding them all, and after a simulated day.
    let bytesPerInstance: Double
    let bytesPerInstanceAfterDay: Double
    /// Virtual time simulated, and the events it took.
    let events: Int
    let nanosecondsPerEvent: Double
    let addNanosecondsPerInstance: Double
}

/// `instances` instances with varied timelines (1 to 5 entries, 5 to 60 minutes apart; `.atEnd`,
/// `.after`, `.never`) on the virtual clock, under the standard budget. The timelines are built
/// beforehand and handed out by reference, so what the heap grows by is the engine's own.
func benchmarkEngine(instances: Int) -> EngineResult {
    let clock = ManualClock()
    let start = clock.now().timeIntervalSince1970
    let view = ViewNode("text", attributes: JSONObject([("text", .string("x"))]))
    // 60 shapes of timeline, each as entries relative to the request time.
    let shapes: [(offsets: [Double], policy: Int, spacing: Double)] = (0..<60).map { shape in
        let count = shape % 5 + 1
        let spacing = Double(5 + (shape * 7) % 56) * 60
        return ((0..<count).map { Double($0) * spacing }, shape % 3, spacing)
    }
    @Sendable func policy(_ shape: Int, _ now: Double) -> WireReloadPolicy {
        switch shapes[shape].policy {
        case 0: .atEnd
        case 1: .after(now + shapes[shape].spacing * Double(shapes[shape].offsets.count))
        default: .never
        }
    }
    // One prebuilt timeline per shape and request time would be unbounded; the entries are dated
    // relative to the start, shifted per request into a reused array per shape.
    let templates = shapes.map { shape in shape.offsets.map { WireEntry(date: start + $0, view: view) } }
    nonisolated(unsafe) var cache: [Double: [WireEntry]] = [:]
    let fetch: TimelineEngine.Fetch = { instance, completion in
        let shape = Int(instance.id.dropFirst(2))! % shapes.count
        let now = clock.now().timeIntervalSince1970
        let key = now * 64 + Double(shape)
        let entries: [WireEntry]
        if let cached = cache[key] {
            entries = cached
        } else {
            entries = templates[shape].map { WireEntry(date: $0.date - start + now, view: view) }
            cache[key] = entries
        }
        completion(.success(FetchedTimeline(entries: entries, policy: policy(shape, now))))
    }
    // The timelines of the first request (all at the start) are made before measuring.
    for shape in 0..<shapes.count { cache[start * 64 + Double(shape)] = templates[shape] }
    let ids = (0..<instances).map { "w-\($0)" }
    let before = heapInUse()
    var engine: TimelineEngine? = TimelineEngine(clock: clock, fetch: fetch)
    let addStart = nanoseconds()
    for id in ids { engine!.add(EngineInstance(id: id, kind: "bench.kind", family: .systemSmall)) }
    let addTime = Double(nanoseconds() - addStart)
    let afterAdd = heapInUse()

    let countersBefore = engine!.counters
    let dayStart = nanoseconds()
    clock.advance(by: 24 * 3600)
    let dayTime = Double(nanoseconds() - dayStart)
    let counters = engine!.counters
    let events = (counters.entrySwitches - countersBefore.entrySwitches)
        + counters.requests.values.reduce(0, +) - countersBefore.requests.values.reduce(0, +)
    // After the day, what the engine holds is what its release gives back: the timelines stay in the
    // cache, so they are not counted.
    let afterDay = heapInUse()
    engine = nil
    let released = afterDay - heapInUse()
    blackHole(ids)
    blackHole(cache.count)
    return EngineResult(
        instances: instances, bytesPerInstance: Double(afterAdd - before) / Double(instances),
        bytesPerInstanceAfterDay: Double(released) / Double(instances), events: events,
        nanosecondsPerEvent: dayTime / Double(max(1, events)), addNanosecondsPerInstance: addTime / Double(instances))
}

/// Voluntary and involuntary context switches of every thread of this process: each time a thread
/// blocked and was woken, or was preempted.
func processContextSwitches() -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    var total = 0
    for task in tasks {
        guard let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8) else { continue }
        for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
            total += Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) ?? 0
        }
    }
    return total
}

struct IdleResult {
    let dueDates: Int
    let engineWakeups: Int
    let processWakeups: Int
    let floorWakeups: Int
    let seconds: Double
}

/// In real time: 1 000 instances whose entries fall due at `dueDates` distinct times over the
/// window, and nothing else. Counts the engine's timer firings and every thread's context switches
/// in the window, against the same window with no engine.
func benchmarkIdle(dueDates: Int, seconds: Double) -> IdleResult {
    let view = ViewNode("text", attributes: JSONObject([("text", .string("x"))]))
    func window(_ body: () -> Void) -> Int {
        let before = processContextSwitches()
        body()
        // The measuring thread sleeps through the window; its own wakeup at the end is one switch.
        usleep(UInt32(seconds * 1_000_000))
        return processContextSwitches() - before - 1
    }
    let floor = window {}
    let clock = SystemClock()
    let origin = clock.now().timeIntervalSince1970
    let step = seconds / Double(dueDates + 1)
    let engine = TimelineEngine(clock: clock) { instance, completion in
        let number = Int(instance.id.dropFirst(2))!
        let entries = [WireEntry(date: origin, view: view)]
            + (1...dueDates).filter { $0 % 4 == number % 4 || $0 % 4 == 0 }.map { WireEntry(date: origin + Double($0) * step, view: view) }
        completion(.success(FetchedTimeline(entries: entries, policy: .never)))
    }
    for number in 0..<1000 { engine.add(EngineInstance(id: "w-\(number)", kind: "bench.kind", family: .systemSmall)) }
    let before = engine.counters.wakeups
    let measured = window {}
    return IdleResult(
        dueDates: dueDates, engineWakeups: engine.counters.wakeups - before, processWakeups: measured, floorWakeups: floor,
        seconds: seconds)
}
