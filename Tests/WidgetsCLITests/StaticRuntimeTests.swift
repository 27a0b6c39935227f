import Foundation
import Glibc
import Testing
import WidgetHost
import WidgetTestSupport

/// `widgets` has the Swift runtime linked into it, and hands Swift bundles to `widgets-worker`, which
/// has the shared one (see `SwiftRuntime`): as every worker, and as the CLI itself under
/// `--isolation queue`. Were `widgets` linked the usual way, it would load the bundles itself and
/// none of the errors below would be seen.
@Suite struct StaticRuntimeTests {
    /// `widgets` at `path`: a hard link to the built one (the same file, as the kernel names it), or
    /// a copy where the file system has none.
    static func placeWidgets(at path: String) {
        if link(Fixtures.widgetsExecutable, path) != 0 { try! FileManager.default.copyItem(atPath: Fixtures.widgetsExecutable, toPath: path) }
    }

    /// `widgets` alone in a directory, with no worker executable beside it or in `../lib/widgets/`.
    static let lonelyWidgets: String = {
        let path = Fixtures.temporaryDirectory("lonely").appendingPathComponent("widgets").path
        placeWidgets(at: path)
        return path
    }()

    /// `widgets` is built on FoundationEssentials alone: ICU's data (30 MB, named `icudt` in
    /// its table of contents) is not in it. Its code must not import Foundation; one that did could not
    /// be linked (the link names only FoundationEssentials' archives).
    @Test func widgetsCarriesNoICU() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.widgetsExecutable))
        #expect(bytes.count > 1_000_000)
        #expect(!bytes.contains(bytesOf: "icudt"), "ICU's data is linked into \(Fixtures.widgetsExecutable)")
    }

    /// Without ICU, FoundationEssentials knows no time zone but GMT: `widgets` writes local dates
    /// through glibc, which reads TZ and /etc/localtime, as Foundation (in this process) would.
    @Test(arguments: ["Asia/Kolkata", "America/New_York", "UTC"])
    func datesAreWrittenInTheSystemsTimeZone(_ zone: String) async throws {
        let plugins = Fixtures.directory(["good"]).path
        let shown = await widgets(["--plugins", plugins, "timeline", "fixture.good"], extraEnvironment: ["TZ": zone])
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xxx"
        // The fixture's first entry is dated 1763750000.
        let expected = "─ entry 1 · \(formatter.string(from: Date(timeIntervalSince1970: 1_763_750_000)))"
        #expect(shown.status == 0 && shown.standardOutput.contains(expected), "\(expected) in \(shown.standardOutput)\(shown.standardError)")
    }

    @Test func theTestsProcessHasTheSharedRuntimeAndStartsWorkersFromItself() {
        #expect(SwiftRuntime.isShared)
        #expect(ProcessIsolation.thisExecutable.workerExecutable == SwiftRuntime.executable)
    }

    /// Swift bundles load in process isolation (through the worker) and in queue isolation (the
    /// command run again by the worker executable), giving the same widgets.
    @Test func swiftBundlesLoadInEitherIsolation() async throws {
        let plugins = Fixtures.directory(["libSystemWidgets.so": "libSystemWidgets.so", "good.so": "good"]).path
        for isolation in ["process", "queue"] {
            let listed = await widgets(["--plugins", plugins, "list", "--short", "--isolation", isolation])
            #expect(listed.status == 0, "\(isolation): \(listed.standardError)")
            #expect(listed.standardOutput.contains("org.widgets.system.clock") && listed.standardOutput.contains("fixture.good"), "\(isolation): \(listed.standardOutput)")
            let timeline = await widgets(["--plugins", plugins, "timeline", "org.widgets.system.uptime", "--isolation", isolation])
            #expect(timeline.status == 0 && timeline.standardOutput.contains("entry 1"), "\(isolation): \(timeline.standardOutput)\(timeline.standardError)")
        }
    }

    /// Without its worker executable, `widgets` says which file it looked for and why it needs it,
    /// for a worker, for `--isolation queue`, and when started as a worker itself; a C bundle needs no
    /// Swift runtime but is loaded the same way.
    @Test func withoutTheWorkerExecutableEachUseNamesIt() async throws {
        // Not installed (not in a bin/): looked for beside it only.
        let beside = URL(fileURLWithPath: Self.lonelyWidgets).deletingLastPathComponent().appendingPathComponent("widgets-worker").path
        let plugins = Fixtures.directory(["libSystemWidgets.so": "libSystemWidgets.so"]).path

        let listed = await widgets(["--plugins", plugins, "list", "--short"], executable: Self.lonelyWidgets)
        #expect(listed.status == 1)
        #expect(listed.standardError.contains("cannot start the worker \(beside): No such file or directory"), "\(listed.standardError)")
        #expect(listed.standardError.contains("looked for at \(beside) (make install puts it in PREFIX/lib/widgets)"), "\(listed.standardError)")

        let queued = await widgets(["--plugins", plugins, "timeline", "org.widgets.system.clock", "--isolation", "queue"], executable: Self.lonelyWidgets)
        #expect(queued.status == 1)
        #expect(
            queued.standardError.contains("--isolation queue: cannot run widgets-worker (none at \(beside))"), "\(queued.standardError)")
        #expect(queued.standardError.contains("make install puts it in PREFIX/lib/widgets"), "\(queued.standardError)")

        let worker = await widgets(["--widgets-worker", plugins + "/libSystemWidgets.so"], executable: Self.lonelyWidgets)
        #expect(worker.status == 70)
        #expect(worker.standardError.contains("cannot start a worker: cannot run widgets-worker (none at \(beside))"), "\(worker.standardError)")

        // What needs no bundle loaded still works.
        let version = await widgets(["--version"], executable: Self.lonelyWidgets)
        #expect(version.status == 0 && version.standardOutput.hasPrefix("widgets "), "\(version.standardError)")
    }

    /// A worker executable that is there but cannot be run is named with the reason.
    @Test func aWorkerExecutableThatCannotBeRunIsNamedWithWhy() async throws {
        let prefix = Fixtures.temporaryDirectory("prefix")
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("lib/widgets"), withIntermediateDirectories: true)
        let copy = prefix.appendingPathComponent("bin/widgets").path
        Self.placeWidgets(at: copy)
        let worker = prefix.appendingPathComponent("lib/widgets/widgets-worker").path
        #expect(FileManager.default.createFile(atPath: worker, contents: Data("not a program".utf8), attributes: [.posixPermissions: 0o644]))
        let plugins = Fixtures.directory(["libSystemWidgets.so": "libSystemWidgets.so"]).path
        let queued = await widgets(["--plugins", plugins, "timeline", "org.widgets.system.clock", "--isolation", "queue"], executable: copy)
        #expect(queued.status == 1)
        #expect(queued.standardError.contains("cannot run widgets-worker (\(worker): Permission denied)"), "\(queued.standardError)")
    }

    /// A "worker executable" that has the runtime linked in too (here a link to `widgets`) is refused
    /// at once, for `--isolation queue` and as a worker, instead of handing over to itself for ever.
    @Test func aWorkerExecutableThatIsWidgetsAgainIsRefused() async throws {
        let directory = Fixtures.temporaryDirectory("again")
        let copy = directory.appendingPathComponent("widgets").path
        Self.placeWidgets(at: copy)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("widgets-worker").path, withDestinationPath: copy)
        let plugins = Fixtures.directory(["libSystemWidgets.so": "libSystemWidgets.so"]).path

        let queued = await widgets(["--plugins", plugins, "timeline", "org.widgets.system.clock", "--isolation", "queue"], executable: copy)
        #expect(queued.status == 1)
        #expect(queued.standardError.contains("was started as widgets-worker but has the Swift runtime linked into it too"), "\(queued.standardError)")

        let listed = await widgets(["--plugins", plugins, "list", "--short"], executable: copy)
        #expect(listed.status == 1)
        #expect(listed.standardError.contains("was started as widgets-worker but has the Swift runtime linked into it too"), "\(listed.standardError)")
    }

    /// A host that names `widgets` itself as its worker executable gets the worker executable in its
    /// place: the bundle loads.
    @Test func widgetsNamedAsTheWorkerHandsOver() async throws {
        let plugins = Fixtures.directory(["libSystemWidgets.so": "libSystemWidgets.so"])
        let registry = await blocking {
            WidgetRegistry.load(searchPath: [plugins.path], isolation: .process(ProcessIsolation(workerExecutable: Fixtures.widgetsExecutable)))
        }
        defer { registry.shutDownWorkers() }
        #expect(registry.problems.isEmpty, "\(registry.problems)")
        #expect(registry.widget(kind: "org.widgets.system.clock") != nil)
    }
}
