import Foundation
import WidgetSupport

/// Real bundles for the tests, built once per test run: the C fixture variants (compiled here with
/// the system C compiler) and the Swift sample bundles (built by `swift build` before the tests).
public enum Fixtures {
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where SwiftPM put the products: beside the test executable.
    public static let productsDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    public static var widgetsExecutable: String { productsDirectory.appendingPathComponent("widgets").path }
    /// The worker executable: `widgets` with the shared Swift runtime, which bundles are loaded by.
    public static var workerExecutable: String { productsDirectory.appendingPathComponent("widgets-worker").path }
    public static var gameAppExecutable: String { productsDirectory.appendingPathComponent("game-app").path }

    /// The C fixture variants and their compiler flags (see Tests/Fixtures/fixture_bundle.c).
    public static let variants: [String: [String]] = [
        "good": [],
        "named-by-file": ["-DKIND_FROM_FILE"],
        "no-entry": ["-DOMIT_ENTRY"],
        "null-entry": ["-DENTRY_RETURNS_NULL"],
        "abi-major-2": ["-DABI_MAJOR=2"],
        "abi-minor-newer": ["-DABI_MINOR=99"],
        "init-fails": ["-DINIT_FAILS"],
        "register-twice": ["-DREGISTER_TWICE"],
        "empty-kind": ["-DEMPTY_KIND", "-DKIND=\"fixture.beside-empty\""],
        "no-family": ["-DNO_FAMILY", "-DKIND=\"fixture.beside-no-family\""],
        "undefined-symbol": ["-DUNDEFINED_SYMBOL"],
        "old-swift": ["-DBUILT_WITH=\"swift-5.10\""],
        "behaviours": ["-DBEHAVIOURS", "-DKIND=\"fixture.behaving\""],
        "small-struct": ["-DBUNDLE_STRUCT_SIZE=8"],
        "abi-1-0": ["-DABI_1_0", "-DKIND=\"fixture.older\""],
        "abi-1-0-configurable": ["-DABI_1_0", "-DKIND=\"fixture.older-configurable\"", "-DCONFIGURATION_KIND=2"],
        "memory-limit-10": ["-DBEHAVIOURS", "-DMEMORY_LIMIT=(10u<<20)", "-DKIND=\"fixture.behaving\""],
        "memory-limit-99": ["-DBEHAVIOURS", "-DMEMORY_LIMIT=(99u<<20)", "-DKIND=\"fixture.behaving\""],
        "null-request": ["-DNULL_REQUEST"],
        "unknown-family": ["-DFAMILIES=(1u<<10)"],
        "unknown-configuration": ["-DCONFIGURATION_KIND=7"],
        "schema-not-json": ["-DCONFIGURATION_KIND=1", "-DSCHEMA=\"{parameters\""],
        "schema-bad-type": [
            "-DCONFIGURATION_KIND=1", #"-DSCHEMA="{\"parameters\":[{\"name\":\"n\",\"type\":\"color\"}]}""#,
        ],
        "static-with-schema": [#"-DSCHEMA="{\"parameters\":[]}""#],
        "schema-bad-default": [
            "-DCONFIGURATION_KIND=1",
            #"-DSCHEMA="{\"parameters\":[{\"name\":\"coin\",\"type\":\"enum\",\"cases\":[{\"value\":\"BTC\"}],\"default\":\"DOGE\"}]}""#,
        ],
        "schema-default-wrong-type": [
            "-DCONFIGURATION_KIND=2", #"-DSCHEMA="{\"parameters\":[{\"name\":\"count\",\"type\":\"integer\",\"default\":\"three\"}]}""#,
        ],
        "configurable-without-schema": ["-DCONFIGURATION_KIND=1"],
        "fails-after-registering": ["-DINIT_FAILS_AFTER_REGISTERING", "-DKIND=\"fixture.withdrawn\""],
        "crash-in-constructor": ["-DCRASH_IN_CONSTRUCTOR"],
        "crash-in-initialize": ["-DCRASH_IN_INITIALIZE"],
        "hang-in-initialize": ["-DHANG_IN_INITIALIZE"],
        "slow": ["-DWAIT_FOR_RELEASE", "-DKIND_FROM_FILE"],
        "hang-in-constructor": ["-DHANG_IN_CONSTRUCTOR"],
        "exit-in-initialize": ["-DEXIT_IN_INITIALIZE"],
        "exit-in-request": ["-DEXIT_IN_REQUEST", "-DKIND=\"fixture.exits\""],
        "hostile": ["-DHOSTILE", "-DKIND=\"fixture.hostile\""],
        "many": ["-DREGISTER_MANY=4000"],
        "costly": ["-DCOSTLY_ENTRY", "-DKIND=\"fixture.costly\""],
        "overflow": ["-DSTACK_OVERFLOW", "-DKIND=\"fixture.overflow\""],
        "escaping": ["-DESCAPING", "-DKIND=\"fixture.escaping\""],
        "long-kind": ["-DREGISTER_MANY=0"],
        "activity": ["-DACTIVITY", "-DKIND=\"fixture.beside-activity\""],
        "metadata": ["-DMETADATA", "-DPREVIEWS", "-DFAMILIES=((1u<<0)|(1u<<6))", "-DKIND=\"fixture.described\""],
        "holds-loader": ["-DHOLD_LOADER", "-DKIND=\"fixture.holding\""],
    ]

    /// This run's scratch directory, under which every test directory is made. Directories of earlier
    /// runs whose process has ended are removed, so runs do not pile up in /tmp, and so are the
    /// processes those runs started and left (a run that crashed leaves the hosts it started running).
    ///
    /// A run leaves some 1.6 GB (copies of bundles, builds). Removing that took 4-5 s, during which
    /// every test that made a directory waited on this initializer, the cooperative pool's two threads
    /// with them, so no test ran at all: the directories are renamed aside at once and removed on a
    /// thread of their own while the tests run (what an interrupted removal leaves, the next run takes).
    public static let runDirectory: URL = {
        let root = URL(fileURLWithPath: "/tmp/widgets-tests")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        removeEndedRuns(under: root)
        let run = root.appendingPathComponent("run-\(getpid())")
        try? FileManager.default.removeItem(at: run)
        try! FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        chmod(root.path, 0o755)
        chmod(run.path, 0o755)
        return run
    }()

    /// The directories under `root` of runs whose process has ended (`run-<pid>`), renamed aside at
    /// once and removed on a thread of their own, with what an earlier removal left (`removing-…`);
    /// the processes those runs left running are killed first.
    public static func removeEndedRuns(under root: URL) {
        var ended: [String] = []
        var removing: [URL] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] {
            let directory = root.appendingPathComponent(name)
            if name.hasPrefix("removing-") {
                removing.append(directory)
                continue
            }
            guard name.hasPrefix("run-"), let pid = Int32(name.dropFirst(4)), pid != getpid(), kill(pid, 0) != 0 else { continue }
            ended.append(directory.path + "/")
            let aside = root.appendingPathComponent("removing-\(name)-by-\(getpid())")
            if rename(directory.path, aside.path) == 0 {
                removing.append(aside)
            } else {
                try? FileManager.default.removeItem(at: directory)
            }
        }
        if !ended.isEmpty { endProcesses(naming: ended) }
        if !removing.isEmpty {
            let directories = removing
            Thread.detachNewThread { for directory in directories { try? FileManager.default.removeItem(at: directory) } }
        }
    }

    /// Kills the processes whose command line names one of `directories`.
    private static func endProcesses(naming directories: [String]) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(name), pid != getpid(),
                let line = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/cmdline")).readToEnd()).flatMap({ $0 })
            else { continue }
            let text = String(decoding: line, as: UTF8.self)
            if directories.contains(where: { text.contains($0) }) { kill(pid, SIGKILL) }
        }
    }

    /// The compiler's cache of the C modules Swift imports (Glibc's and the SDK's), one for the run:
    /// `widgets build` in a test has a build cache of its own, but builds the same system modules as
    /// every other test, which took 3 of a build's 4.5 s. Given to swiftc as CLANG_MODULE_CACHE_PATH
    /// (clang's cache is safe to share between compilers running at once; it is keyed by their flags).
    public static let compilerModuleCache: URL = temporaryDirectory("module-cache")

    /// The directory holding every built fixture, `<variant>.so`, plus the Swift sample bundles.
    public static let built: URL = {
        let directory = temporaryDirectory("fixtures")
        let source = repositoryRoot.appendingPathComponent("Tests/Fixtures/fixture_bundle.c").path
        let include = repositoryRoot.appendingPathComponent("Sources/CWidgetABI/include").path
        // One compiler per core at a time: every test that needs a fixture waits for all of them.
        let sorted = variants.sorted(by: { $0.key < $1.key })
        DispatchQueue.concurrentPerform(iterations: sorted.count) { index in
            let (name, flags) = sorted[index]
            let output = directory.appendingPathComponent("\(name).so").path
            let result = runProcessWaiting(
                "/usr/bin/env", ["cc", "-shared", "-fPIC", "-O1", "-I", include] + flags + [source, "-o", output, "-lpthread"])
            precondition(result.status == 0, "cannot build fixture \(name): \(result.standardError)")
        }
        let hostInfo = directory.appendingPathComponent("libHostInfo.so").path
        let result = runProcessWaiting(
            "/usr/bin/env",
            ["cc", "-shared", "-fPIC", "-O1", "-I", include, repositoryRoot.appendingPathComponent("Plugins/HostInfo/hostinfo.c").path, "-o", hostInfo])
        precondition(result.status == 0, "cannot build the C sample: \(result.standardError)")
        for sample in ["libGameWidgets.so", "libSystemWidgets.so", "libFaultWidgets.so", "libCryptoWidgets.so"] {
            let from = productsDirectory.appendingPathComponent(sample)
            precondition(FileManager.default.fileExists(atPath: from.path), "\(from.path) is missing: run 'swift build' before 'swift test' (make test does)")
            try! FileManager.default.copyItem(at: from, to: directory.appendingPathComponent(sample))
        }
        return directory
    }()

    public static func path(_ name: String) -> String {
        built.appendingPathComponent(name.hasSuffix(".so") ? name : "\(name).so").path
    }

    /// A fresh bundle directory (mode 0755) holding copies of the named fixtures, optionally renamed:
    /// `["a.so": "good"]` copies good.so as a.so.
    public static func directory(_ files: [String: String]) -> URL {
        let directory = temporaryDirectory("plugins")
        for (target, fixture) in files {
            try! FileManager.default.copyItem(
                at: URL(fileURLWithPath: path(fixture)), to: directory.appendingPathComponent(target))
        }
        return directory
    }

    public static func directory(_ fixtures: [String]) -> URL {
        directory(Dictionary(uniqueKeysWithValues: fixtures.map { ($0.hasSuffix(".so") ? $0 : "\($0).so", $0) }))
    }

    public static func temporaryDirectory(_ label: String) -> URL {
        var template = Array("\(runDirectory.path)/\(label)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(path, 0o755)
        return URL(fileURLWithPath: path)
    }
}

public struct ProcessResult: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
}

/// Runs a program to completion and captures its output, on a thread of its own: waiting for it must
/// not occupy Swift's cooperative pool (two threads here), which other tests' tasks need.
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil
) async -> ProcessResult {
    await blocking { runProcessWaiting(executable, arguments, environment: environment, directory: directory) }
}

/// Runs a blocking call on a new thread and awaits it, leaving the cooperative pool and Dispatch's
/// shared queues (whose threads the host's timers use) free.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// What a suite's tests share and one of them computes first (a build), computed on a thread of its
/// own: awaiting it suspends. A `static let` computed by a blocking call would hold one of the
/// cooperative pool's threads (two here) for the build's whole time, and every other test's tasks,
/// the code's under test among them, would wait for the other one.
public final class Once<Value: Sendable>: Sendable {
    private let task: Task<Value, Never>

    public init(_ make: @escaping @Sendable () -> Value) {
        task = Task.detached { await blocking(make) }
    }

    public var value: Value { get async { await task.value } }
}

/// Whether `holds` comes true within `seconds`, asked every 50 ms: for what a test cannot be told
/// of (a compositor's frame, a host's drawing done on its own task).
public func eventually(within seconds: Double = 10, _ holds: @escaping @Sendable () throws -> Bool) async throws -> Bool {
    let giveUp = Date().addingTimeInterval(seconds)
    while Date() < giveUp {
        if try holds() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try holds()
}

/// Runs `body` on a thread of its own and returns what it returns or throws: for a test that must
/// wait in a blocking call (a socket, a browser), which on the cooperative pool would starve the
/// tasks of the code under test (the pool has a thread per core).
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// Runs a program to completion, blocking the calling thread: the host's own `Subprocess`, which reads
/// both pipes at once (neither fills and stops the program) and leaves the program no other
/// descriptor of this process. A signal's end is 128 plus the signal, as a shell says it.
public func runProcessWaiting(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil
) -> ProcessResult {
    do {
        let outcome = try Subprocess(executable, arguments, environment: environment, directory: directory?.path).finish()
        return ProcessResult(
            status: outcome.status, standardOutput: String(decoding: outcome.output, as: UTF8.self),
            standardError: String(decoding: outcome.errors, as: UTF8.self))
    } catch {
        return ProcessResult(status: -1, standardOutput: "", standardError: "\(error)")
    }
}

/// Runs the `widgets` CLI (or `executable`, a copy of it) with a private data home, so no test reads
/// or writes the user's files.
public func widgets(
    _ arguments: [String], executable: String = Fixtures.widgetsExecutable, dataHome: URL? = nil, extraEnvironment: [String: String] = [:],
    directory: URL? = nil
) async -> ProcessResult {
    await runProcess(executable, arguments, environment: widgetsEnvironment(dataHome: dataHome, extra: extraEnvironment), directory: directory)
}

/// The environment `widgets` runs in for a test: every directory it reads or writes its own, so it
/// reaches neither the user's files nor a host another test runs.
public func widgetsEnvironment(dataHome: URL? = nil, extra extraEnvironment: [String: String] = [:]) -> [String: String] {
    WidgetsDirectories(data: dataHome).environment.merging(extraEnvironment) { $1 }
}

/// The directories of a test's `widgets`, and of what it starts, each made for it.
public struct WidgetsDirectories: Sendable {
    public let data: URL
    public let runtime: URL
    public let stateHome: URL
    public let config: URL
    public let cache: URL

    public init(data: URL? = nil) {
        self.data = data ?? Fixtures.temporaryDirectory("data")
        runtime = Fixtures.temporaryDirectory("runtime")
        stateHome = Fixtures.temporaryDirectory("statehome")
        config = Fixtures.temporaryDirectory("config")
        cache = Fixtures.temporaryDirectory("cache")
    }

    /// This process's environment with these as its XDG directories, no bundle search path
    /// (`WIDGETS_PATH`), no colour, and the run's compiler module cache.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = data.path
        environment["WIDGETS_PATH"] = nil
        environment["NO_COLOR"] = "1"
        // A runtime directory of its own: no test reaches a host the user runs.
        environment["XDG_RUNTIME_DIR"] = runtime.path
        // A command run without --state-dir keeps its instances here, never in the user's own state.
        environment["XDG_STATE_HOME"] = stateHome.path
        // Bundles' UserDefaults suites are kept here, never in the user's own configuration.
        environment["XDG_CONFIG_HOME"] = config.path
        // A registry cache of its own: each run loads its bundles, unless a test keeps one across runs.
        environment["XDG_CACHE_HOME"] = cache.path
        environment["CLANG_MODULE_CACHE_PATH"] = Fixtures.compilerModuleCache.path
        // A developer's SWIFT_BACKTRACE (set to see the test process's crashes) would have the
        // statically linked `widgets` say on standard error, which the tests read, that it finds no
        // backtracer beside it.
        environment["SWIFT_BACKTRACE"] = nil
        return environment
    }
}
