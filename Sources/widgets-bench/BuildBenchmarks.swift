import Foundation
import Glibc
@_spi(Benchmarks) import WidgetBuild

// MARK: - widgets build

struct BuildResult {
    let files: Int
    let lines: Int
    /// `widgets build` of the extension with nothing built before (seconds).
    let first: [Double]
    /// `swiftc` compiling and linking the same files alone, in one invocation, with the flags and
    /// the SDK objects `widgets build` uses (seconds); and compiling them alone, not linking.
    let floor: [Double]
    let compileFloor: [Double]
    /// `widgets build` after a one-line edit: the incremental compile, the link, the install.
    let rebuild: [Double]
    /// With `widgets build --watch` and `widgets run --web` running: from the save to the watch
    /// reporting the bundle compiled, and to a page of the home screen reading the new card.
    let watchRebuild: [Double]
    let saveToPage: [Double]
}

/// A program left running, its output read line by line with the time each line came.
final class TimedOutput: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    private var lines: [(time: UInt64, text: String)] = []

    init(_ executable: String, _ arguments: [String], environment: [String: String]) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try! process.run()
        try? pipe.fileHandleForWriting.close()
        Thread.detachNewThread { [self] in
            var pending = ""
            while true {
                let data = pipe.fileHandleForReading.availableData
                let now = nanoseconds()
                if data.isEmpty { return }
                pending += String(decoding: data, as: UTF8.self)
                while let end = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<end])
                    pending = String(pending[pending.index(after: end)...])
                    condition.withLock {
                        lines.append((now, line))
                        condition.broadcast()
                    }
                }
            }
        }
    }

    /// The time of the first line after the first `after` lines that satisfies `matches`.
    func wait(after: Int = 0, limit: Double = 120, _ matches: (String) -> Bool) -> (time: UInt64, index: Int)? {
        let giveUp = Date().addingTimeInterval(limit)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = lines.indices.first(where: { $0 >= after && matches(lines[$0].text) }) { return (lines[index].time, index) }
            if !condition.wait(until: giveUp) { return nil }
        }
    }

    var count: Int { condition.withLock { lines.count } }
    var text: String { condition.withLock { lines.map(\.text).joined(separator: "\n") } }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// A widget extension of `files` files of 100 lines each, as an author writes one: a widget per
/// file (entry, provider, a view of stacks, text, symbols and a gauge, helpers), the bundle in the
/// first. The third file's `label` is the line an edit changes.
func writeExtension(files: Int, into folder: URL) -> Int {
    try? FileManager.default.removeItem(at: folder)
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var total = 0
    for number in 1...files {
        var lines = ["import SwiftUI", "import WidgetKit", ""]
        if number == 1 {
            lines += ["@main", "struct BenchWidgets: WidgetBundle {", "    var body: some Widget {"]
            lines += (1...files).map { "        Widget\($0)()" }
            lines += ["    }", "}", ""]
        }
        if number == 3 { lines += ["let label = \"Edit 0\"", ""] }
        lines += [
            "struct Entry\(number): TimelineEntry {", "    let date: Date", "    let value: Int", "    let readings: [Double]", "}", "",
            "struct Provider\(number): TimelineProvider {",
            "    func placeholder(in context: Context) -> Entry\(number) { Entry\(number)(date: Date(), value: 0, readings: []) }",
            "    func getSnapshot(in context: Context, completion: @escaping (Entry\(number)) -> Void) {",
            "        completion(Entry\(number)(date: Date(), value: \(number * 7), readings: Series\(number).readings(count: 6)))", "    }",
            "    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry\(number)>) -> Void) {",
            "        let start = Date()",
            "        let entries = (0..<4).map { Entry\(number)(date: start.addingTimeInterval(Double($0) * 900), value: $0 * \(number), readings: Series\(number).readings(count: 6 + $0)) }",
            "        completion(Timeline(entries: entries, policy: .atEnd))", "    }", "}", "",
            "enum Series\(number) {",
            "    static func readings(count: Int) -> [Double] {", "        (0..<count).map { index -> Double in Double((index * 37 + \(number)) % 100) / 100 }", "    }",
            "    static func average(_ values: [Double]) -> Double {", "        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)", "    }",
            "    static func trend(_ values: [Double]) -> String {", "        guard let first = values.first, let last = values.last else { return \"steady\" }",
            "        return last > first ? \"rising\" : last < first ? \"falling\" : \"steady\"", "    }", "}", "",
            "struct Row\(number): View {", "    let title: String", "    let detail: String", "    let symbol: String", "",
            "    var body: some View {", "        HStack(spacing: 6) {", "            Image(systemName: symbol)", "                .foregroundStyle(.tint)",
            "            VStack(alignment: .leading, spacing: 2) {", "                Text(title).font(.caption.bold())",
            "                Text(detail).font(.caption2).foregroundStyle(.secondary)", "            }", "            Spacer(minLength: 0)", "        }", "    }", "}", "",
            "struct View\(number): View {", "    var entry: Entry\(number)", "    @Environment(\\.widgetFamily) var family", "",
            "    var body: some View {", "        VStack(alignment: .leading, spacing: 4) {",
            number == 3 ? "            Text(label).font(.headline)" : "            Text(\"Widget \(number)\").font(.headline)",
            "            Gauge(value: Series\(number).average(entry.readings)) { Text(\"Level\") }", "                .gaugeStyle(.accessoryLinear)",
            "            Row\(number)(title: \"Value\", detail: \"\\(entry.value)\", symbol: \"number\")",
            "            Row\(number)(title: \"Trend\", detail: Series\(number).trend(entry.readings), symbol: \"chart.line.uptrend.xyaxis\")",
            "            if family != .systemSmall {", "                Text(entry.date, style: .time).font(.caption2)", "            }", "        }",
            "        .containerBackground(.fill.tertiary, for: .widget)", "    }", "}", "",
            "struct Widget\(number): Widget {", "    var body: some WidgetConfiguration {",
            "        StaticConfiguration(kind: \"bench.widget\(number)\", provider: Provider\(number)()) { entry in", "            View\(number)(entry: entry)", "        }",
            "        .configurationDisplayName(\"Widget \(number)\")", "        .description(\"A widget of the build benchmark.\")",
            "        .supportedFamilies([.systemSmall, .systemMedium])", "    }", "}", "",
        ]
        // Helpers up to 100 lines.
        var helper = 0
        while lines.count + 5 <= 100 {
            lines += ["extension Series\(number) {", "    static func scaled\(helper)(_ value: Double) -> Double {", "        value * \(helper + 2).0 + \(number).0", "    }", "}"]
            helper += 1
        }
        while lines.count < 100 { lines.append("") }
        try! lines.joined(separator: "\n").appending("\n").write(to: folder.appendingPathComponent("File\(number).swift"), atomically: true, encoding: .utf8)
        total += lines.count
    }
    return total
}

/// Runs a program to its end; its wall time in seconds. Its output is kept for a failure's report.
func timedRun(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) -> (seconds: Double, status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    let start = nanoseconds()
    try! process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (Double(nanoseconds() - start) / 1e9, process.terminationStatus, String(decoding: output, as: UTF8.self))
}

/// `widgets build` of a 500-line, 5-file extension with the release `widgets` beside this program:
/// first builds, one-line rebuilds and the swiftc floor alternated, then edit to screen.
func benchmarkBuild(rounds: Int = 5) -> BuildResult {
    let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let widgets = binaries.appendingPathComponent("widgets").path
    precondition(FileManager.default.isExecutableFile(atPath: widgets), "\(widgets) is missing: make bench builds it")
    let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-build-\(getpid())")
    defer { try? FileManager.default.removeItem(at: root) }
    let source = root.appendingPathComponent("BenchWidgets")
    let lines = writeExtension(files: 5, into: source)
    let out = root.appendingPathComponent("bundles")
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
    environment["XDG_RUNTIME_DIR"] = root.appendingPathComponent("runtime").path
    environment["NO_COLOR"] = "1"
    environment["WIDGETS_PATH"] = nil
    try! FileManager.default.createDirectory(at: root.appendingPathComponent("runtime"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])

    // The floor's command: the same flags and SDK objects, the files compiled and linked by one swiftc.
    let runner = ProcessRunner(passesOutputThrough: false)
    let extensionSource = try! ExtensionReader.read(source.path, target: nil, swiftVersion: nil, release: false)
    let sdk = try! WidgetSDK.locate(executable: widgets)
    let compiler = try! SwiftCompiler.locate(runner: runner)
    let builder = BundleBuilder(
        source: extensionSource, sdk: sdk, compiler: compiler,
        options: BuildOptions(outputDirectory: out.path, workDirectory: root.appendingPathComponent("unused").path), runner: runner)
    let floorDirectory = root.appendingPathComponent("floor")
    try! FileManager.default.createDirectory(at: floorDirectory, withIntermediateDirectories: true)
    let files = extensionSource.swiftFiles
    func floor() -> Double {
        let run = timedRun(
            compiler.path,
            ["-emit-library", "-o", floorDirectory.appendingPathComponent("Floor.so").path, "-j", String(ProcessInfo.processInfo.activeProcessorCount)]
                + compiler.linkerFlags + builder.swiftFlags + files + sdk.objects)
        precondition(run.status == 0, "the floor did not build:\n\(run.output)")
        return run.seconds
    }
    func compileFloor() -> Double {
        let run = timedRun(compiler.path, ["-c", "-j", String(ProcessInfo.processInfo.activeProcessorCount), "-working-directory", floorDirectory.path] + builder.swiftFlags + files)
        precondition(run.status == 0, "the floor did not compile:\n\(run.output)")
        return run.seconds
    }

    var edits = 0
    func edit() {
        edits += 1
        let file = source.appendingPathComponent("File3.swift")
        let text = try! String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"Edit \(edits - 1)\"", with: "\"Edit \(edits)\"")
        try! text.write(to: file, atomically: true, encoding: .utf8)
    }
    func build(cache: URL) -> Double {
        var buildEnvironment = environment
        buildEnvironment["XDG_CACHE_HOME"] = cache.path
        let run = timedRun(widgets, ["build", source.path, "--out", out.path], environment: buildEnvironment)
        precondition(run.status == 0, "widgets build failed:\n\(run.output)")
        return run.seconds
    }

    var first: [Double] = []
    var floors: [Double] = []
    var compileFloors: [Double] = []
    var rebuilds: [Double] = []
    let cache = root.appendingPathComponent("cache")
    _ = floor()  // warm the file cache: the SDK's objects, the modules
    for round in 0..<rounds {
        // Alternated, each first in turn: this machine's speed moves between minutes.
        let fresh = root.appendingPathComponent("cache-first-\(round)")
        if round % 2 == 0 {
            first.append(build(cache: fresh))
            floors.append(floor())
        } else {
            floors.append(floor())
            first.append(build(cache: fresh))
        }
        try? FileManager.default.removeItem(at: fresh)
        compileFloors.append(compileFloor())
        _ = build(cache: cache)
        edit()
        rebuilds.append(build(cache: cache))
    }

    // Edit to screen: the host on the bundle directory with the web page open, the watch running.
    let state = root.appendingPathComponent("state")
    var hostEnvironment = environment
    hostEnvironment["XDG_CACHE_HOME"] = cache.path
    let added = timedRun(widgets, ["--plugins", out.path, "add", "bench.widget3", "--state-dir", state.path], environment: hostEnvironment)
    precondition(added.status == 0, added.output)
    let host = TimedOutput(widgets, ["--plugins", out.path, "run", "--state-dir", state.path, "--web", "127.0.0.1:0"], environment: hostEnvironment)
    defer { host.stop() }
    guard let announced = host.wait({ $0.contains("home screen: http://127.0.0.1:") }) else { fatalError("the host did not serve its page:\n\(host.text)") }
    let address = host.text.split(separator: "\n")[announced.index]
    guard let at = address.range(of: "127.0.0.1:"), let port = UInt16(address[at.upperBound...].prefix { $0.isNumber }) else {
        fatalError("no port in the host's line: \(address)")
    }
    let token = try! String(contentsOf: state.appendingPathComponent("web-token"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let page = BenchPage(port: port, token: token)
    let watch = TimedOutput(widgets, ["build", source.path, "--out", out.path, "--watch"], environment: hostEnvironment)
    defer { watch.stop() }
    guard watch.wait({ $0.hasPrefix("widgets: watching") }) != nil else { fatalError("the watch did not start:\n\(watch.text)") }
    var watchRebuilds: [Double] = []
    var saveToPage: [Double] = []
    for _ in 0..<rounds {
        let seen = watch.count
        let saved = nanoseconds()
        edit()
        guard let compiled = watch.wait(after: seen, { $0.contains("(compiled,") }) else { fatalError("the watch did not build:\n\(watch.text)") }
        while let event = page.next() {
            if event.contains("event: card"), event.contains("Edit \(edits)") { break }
        }
        saveToPage.append(Double(nanoseconds() - saved) / 1e9)
        watchRebuilds.append(Double(compiled.time - saved) / 1e9)
    }
    return BuildResult(
        files: 5, lines: lines, first: first, floor: floors, compileFloor: compileFloors, rebuild: rebuilds, watchRebuild: watchRebuilds,
        saveToPage: saveToPage)
}
