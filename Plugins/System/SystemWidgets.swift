import Dispatch
import Foundation
import WidgetKit

// Widgets with real Linux data. Each reload policy suits how its data changes: the clock and the
// uptime are known in advance (a timeline of future entries, then .atEnd); load and memory are not
// (one entry, then .after a few minutes).

struct SystemWidgets: WidgetBundle {
    var body: some Widget {
        ClockWidget()
        LoadWidget()
        MemoryWidget()
        UptimeWidget()
    }
}

@c(widget_bundle_entry) public func widgetBundleEntry() -> UnsafeRawPointer {
    exportWidgetBundle(SystemWidgets.self, name: "System", version: "1.0.0", vendor: "the widgets project")
}

/// Minute boundaries from `date` on: the dates a minute-resolution display changes at.
func minutes(from date: Date, count: Int) -> [Date] {
    let start = Calendar.current.dateInterval(of: .minute, for: date)!.start
    return (0..<count).map { start.addingTimeInterval(Double($0) * 60) }
}

// MARK: - Clock

struct ClockEntry: TimelineEntry {
    let date: Date
}

struct ClockProvider: TimelineProvider {
    func placeholder(in context: Context) -> ClockEntry { ClockEntry(date: Date()) }

    func getSnapshot(in context: Context, completion: @escaping (ClockEntry) -> Void) {
        completion(ClockEntry(date: Date()))
    }

    /// An entry at every minute of the next hour; the host switches between them without asking.
    func getTimeline(in context: Context, completion: @escaping (Timeline<ClockEntry>) -> Void) {
        completion(Timeline(entries: minutes(from: Date(), count: 60).map(ClockEntry.init), policy: .atEnd))
    }
}

struct ClockView: View {
    static let time: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        return formatter
    }()
    @Environment(\.widgetFamily) var family
    let entry: ClockEntry

    var body: some View {
        let time = Self.time.string(from: entry.date)
        switch family {
        case .accessoryInline:
            Text(time)
        default:
            VStack(spacing: 2) {
                Text(time).font(.largeTitle).bold().minimumScaleFactor(0.4).lineLimit(1)
                Text(entry.date.formatted(Date.FormatStyle().weekday(.wide).day().month(.wide))).font(.caption)
                    .minimumScaleFactor(0.6).lineLimit(family == .accessoryCircular ? 1 : 2)
            }
        }
    }
}

struct ClockWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.widgets.system.clock", provider: ClockProvider()) { entry in
            ClockView(entry: entry)
        }
        .configurationDisplayName("Clock")
        .description("The time, to the minute.")
        .supportedFamilies([.systemSmall, .accessoryInline, .accessoryCircular])
    }
}

// MARK: - Load and CPU

struct LoadEntry: TimelineEntry {
    let date: Date
    let load: SystemReadings.Load?
    let cpu: Double?
    var failure: String?
}

struct LoadProvider: TimelineProvider {
    /// CPU usage is the busy share between two readings of /proc/stat this far apart.
    static let sampleInterval = DispatchTimeInterval.milliseconds(250)

    func placeholder(in context: Context) -> LoadEntry {
        LoadEntry(date: Date(), load: SystemReadings.Load(one: 0.5, five: 0.5, fifteen: 0.5), cpu: 0.25)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (LoadEntry) -> Void) {
        sample(completion)
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<LoadEntry>) -> Void) {
        sample { entry in
            completion(Timeline(entries: [entry], policy: .after(entry.date.addingTimeInterval(5 * 60))))
        }
    }

    /// Completes after the second reading, on another thread: the ABI allows a late completion.
    private func sample(_ completion: @escaping @Sendable (LoadEntry) -> Void) {
        let first: SystemReadings.CPUTimes
        do {
            guard let times = SystemReadings.cpuTimes(try SystemReadings.read("/proc/stat")) else {
                return completion(LoadEntry(date: Date(), load: nil, cpu: nil, failure: "\(SystemReadings.Failure.unexpected("/proc/stat"))"))
            }
            first = times
        } catch {
            return completion(LoadEntry(date: Date(), load: nil, cpu: nil, failure: "\(error)"))
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.sampleInterval) {
            let second = (try? SystemReadings.read("/proc/stat")).flatMap(SystemReadings.cpuTimes)
            let load = (try? SystemReadings.read("/proc/loadavg")).flatMap(SystemReadings.load)
            completion(LoadEntry(date: Date(), load: load, cpu: second.map { SystemReadings.usage(from: first, to: $0) }))
        }
    }
}

struct LoadView: View {
    let entry: LoadEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text("Load").font(.headline)
            if let failure = entry.failure {
                Text(failure).font(.caption).foregroundColor(.red)
            }
            if let load = entry.load {
                Text(String(format: "%.2f  %.2f  %.2f", load.one, load.five, load.fifteen)).font(.title3)
                Text("1, 5 and 15 min").font(.caption).foregroundColor(.secondary)
            }
            if let cpu = entry.cpu {
                Text("CPU \(SystemReadings.percent(cpu))").foregroundColor(cpu > 0.8 ? .red : .primary)
            }
        }
    }
}

struct LoadWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.widgets.system.load", provider: LoadProvider()) { entry in
            LoadView(entry: entry)
        }
        .configurationDisplayName("Load & CPU")
        .description("Load averages and CPU usage.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

// MARK: - Memory

struct MemoryEntry: TimelineEntry {
    let date: Date
    let memory: SystemReadings.Memory?
}

struct MemoryProvider: TimelineProvider {
    func placeholder(in context: Context) -> MemoryEntry {
        MemoryEntry(date: Date(), memory: SystemReadings.Memory(totalKiB: 16 << 20, availableKiB: 8 << 20))
    }

    func getSnapshot(in context: Context, completion: @escaping (MemoryEntry) -> Void) {
        completion(read())
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<MemoryEntry>) -> Void) {
        let entry = read()
        completion(Timeline(entries: [entry], policy: .after(entry.date.addingTimeInterval(5 * 60))))
    }

    private func read() -> MemoryEntry {
        MemoryEntry(date: Date(), memory: (try? SystemReadings.read("/proc/meminfo")).flatMap(SystemReadings.memory))
    }
}

struct MemoryView: View {
    @Environment(\.widgetFamily) var family
    let entry: MemoryEntry

    var body: some View {
        if let memory = entry.memory {
            if family == .accessoryInline {
                Text("Memory \(SystemReadings.percent(memory.usedFraction))")
            } else {
                VStack(alignment: .leading, spacing: 4) {
                    Text("Memory").font(.headline)
                    Text(SystemReadings.percent(memory.usedFraction)).font(.title).bold()
                    Text("\(SystemReadings.gibibytes(memory.availableKiB)) free of \(SystemReadings.gibibytes(memory.totalKiB))")
                        .font(.caption)
                }
            }
        } else {
            Text("Memory: /proc/meminfo unreadable").foregroundColor(.red)
        }
    }
}

struct MemoryWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.widgets.system.memory", provider: MemoryProvider()) { entry in
            MemoryView(entry: entry)
        }
        .configurationDisplayName("Memory")
        .description("Memory in use and available.")
        .supportedFamilies([.systemSmall, .accessoryInline])
    }
}

// MARK: - Uptime

struct UptimeEntry: TimelineEntry {
    let date: Date
    let uptime: TimeInterval?
}

struct UptimeProvider: TimelineProvider {
    func placeholder(in context: Context) -> UptimeEntry { UptimeEntry(date: Date(), uptime: 3 * 3600) }

    func getSnapshot(in context: Context, completion: @escaping (UptimeEntry) -> Void) {
        completion(UptimeEntry(date: Date(), uptime: readUptime()))
    }

    /// Uptime grows with the clock, so the next half hour is known now: one entry per minute.
    func getTimeline(in context: Context, completion: @escaping (Timeline<UptimeEntry>) -> Void) {
        let now = Date()
        guard let uptime = readUptime() else {
            return completion(Timeline(entries: [UptimeEntry(date: now, uptime: nil)], policy: .after(now.addingTimeInterval(3600))))
        }
        let entries = minutes(from: now, count: 30).map { date in
            UptimeEntry(date: date, uptime: uptime + max(0, date.timeIntervalSince(now)))
        }
        completion(Timeline(entries: entries, policy: .atEnd))
    }

    private func readUptime() -> TimeInterval? {
        (try? SystemReadings.read("/proc/uptime")).flatMap(SystemReadings.uptime)
    }
}

struct UptimeWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "org.widgets.system.uptime", provider: UptimeProvider()) { entry in
            VStack(spacing: 2) {
                Text("Up").font(.caption)
                Text(entry.uptime.map(SystemReadings.duration) ?? "unknown").font(.title2).bold()
            }
        }
        .configurationDisplayName("Uptime")
        .description("Time since this machine started.")
        .supportedFamilies([.systemSmall, .accessoryCircular, .accessoryRectangular])
    }
}
