import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

import WidgetABI
import WidgetSupport
import WidgetTimelines
@testable import WidgetHost

/// Every refusal the loader makes, each through a real bundle file and the real loader: the refused
/// file gets one problem naming it and the reason, and the good bundle beside it still loads.
@Suite struct BundleLoadingTests {
    /// Loads `good.so` beside `fixture` and returns the problems, after checking the good one loaded.
    func refusal(_ files: [String: String], sourceLocation: SourceLocation = #_sourceLocation) -> (WidgetRegistry, URL) {
        var files = files
        files["good.so"] = "good"
        let directory = Fixtures.directory(files)
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        #expect(registry.widget(kind: "fixture.good") != nil, "the good bundle beside it must still load", sourceLocation: sourceLocation)
        return (registry, directory)
    }

    func onlyProblem(_ registry: WidgetRegistry, sourceLocation: SourceLocation = #_sourceLocation) -> LoadProblem? {
        #expect(registry.problems.count == 1, "problems: \(registry.problems)", sourceLocation: sourceLocation)
        return registry.problems.first
    }

    /// A bundle's names and messages are one line of plain text: every control character, C1 and
    /// DEL included, is kept out of a kind and made a space in a diagnostic.
    @Test func controlCharactersAreKeptOutOfNamesAndDiagnostics() {
        for control in ["\u{1}", "\n", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}"] {
            #expect(("kind" + control).hasControlCharacters, "\(control.unicodeScalars.first!.value)")
            #expect(("a" + control + "b").withCString { String(bundleText: $0) } == "a b", "\(control.unicodeScalars.first!.value)")
            #expect(String(bundleText: "a" + control + "b") == "a b", "\(control.unicodeScalars.first!.value)")
            #expect(("a" + control + "b").onOneLine == "a b", "\(control.unicodeScalars.first!.value)")
        }
        // U+00A0 and U+00BF share C1's lead byte; U+0100 follows it.
        #expect(!"com.example.météo\u{A0}\u{BF}\u{100}".hasControlCharacters)
        #expect(String(bundleText: "météo\u{A0}") == "météo\u{A0}")
        #expect("météo\tend".withCString { String(bundleText: $0) } == "météo end")
        // Invalid UTF-8 is repaired, with or without control characters beside it.
        let invalid: [CChar] = [0x61, -1, 0x62, 0]
        #expect(invalid.withUnsafeBufferPointer { String(bundleText: $0.baseAddress!) } == "a\u{FFFD}b")
        let invalidAndControl: [CChar] = [0x61, -1, 0x0A, 0x62, 0]
        #expect(invalidAndControl.withUnsafeBufferPointer { String(bundleText: $0.baseAddress!) } == "a\u{FFFD} b")
        // Text reported by a worker is cut as text read from a bundle is.
        let long = String(repeating: "é", count: 600)
        #expect(String(bundleText: long) == long.withCString { String(bundleText: $0) })
        #expect(String(bundleText: long).hasSuffix("… (1200 bytes)"))
    }

    @Test func wellFormedBundleRegistersItsWidgetWithEveryDescriptorField() throws {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["good"]).path])
        #expect(registry.problems.isEmpty)
        let widget = try #require(registry.widget(kind: "fixture.good"))
        #expect(widget.displayName == "Fixture")
        #expect(widget.description == "A test fixture")
        #expect(widget.families == [.systemSmall, .systemMedium])
        #expect(widget.configurationKind == .static)
        #expect(widget.configurationName == nil)
        #expect(widget.bundle.abiVersion == ABIVersion(major: 1, minor: 7))
        #expect(widget.bundle.builtWith == "c")
    }

    @Test func textFileNamedSoIsRefusedAsNotASharedObject() throws {
        let directory = Fixtures.temporaryDirectory("plugins")
        try "not a library\n".write(to: directory.appendingPathComponent("notes.so"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Fixtures.path("good"), toPath: directory.appendingPathComponent("good.so").path)
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .notSharedObject)
        #expect(problem.path == directory.appendingPathComponent("notes.so").path)
        #expect(problem.description == "\(problem.path): not a shared object (no ELF header)")
        #expect(registry.widget(kind: "fixture.good") != nil)
    }

    @Test func truncatedBundleIsRefusedBeforeTheDynamicLoaderSeesIt() throws {
        let (_, directory) = refusal([:])
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("good")))
        let truncated = directory.appendingPathComponent("truncated.so")
        try data.prefix(data.count / 2).write(to: truncated)
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .truncated)
        #expect(problem.message.hasPrefix("truncated: \(data.count / 2) bytes"))
    }

    @Test func bundleForAnotherArchitectureIsRefused() throws {
        let (_, directory) = refusal([:])
        var data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("good")))
        // e_machine: aarch64 (183) on x86_64, x86_64 (62) on aarch64.
        #if arch(arm64)
            data[18] = 62
        #else
            data[18] = 183
        #endif
        try data.write(to: directory.appendingPathComponent("foreign.so"))
        let problem = try #require(onlyProblem(WidgetRegistry.load(searchPath: [directory.path])))
        #expect(problem.reason == .wrongArchitecture)
        #expect(problem.message.contains("built for another architecture"))
    }

    /// Offsets in a crafted header that overflow 64-bit sums must be refused, not trap the host.
    @Test(arguments: [
        ("section table", 40, "malformed ELF header: its section table lies beyond any file"),
        ("program headers", 32, "truncated:"),
        ("loadable segment", -1, "malformed ELF header: a loadable segment lies beyond any file"),
    ])
    func craftedHeaderOffsetsAreRefusedWithoutOverflowing(part: String, offset: Int, message: String) throws {
        let (_, directory) = refusal([:])
        var data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("good")))
        var target = offset
        if target < 0 {
            // The first PT_LOAD's p_offset.
            let programOffset = Int(data[32]) | Int(data[33]) << 8 | Int(data[34]) << 16
            let entrySize = Int(data[54]) | Int(data[55]) << 8
            var index = programOffset
            while data[index] != 1 { index += entrySize }
            target = index + 8
        }
        for byte in 0..<8 { data[target + byte] = 0xFF }
        try data.write(to: directory.appendingPathComponent("crafted.so"))
        let problem = try #require(onlyProblem(WidgetRegistry.load(searchPath: [directory.path])))
        #expect(problem.message.hasPrefix(message), "\(part): \(problem.message)")
    }

    @Test func olderMinorVersionBundleIsAcceptedWithoutItsNewerFields() throws {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["abi-1-0"]).path])
        #expect(registry.problems.isEmpty, "\(registry.problems)")
        let bundle = try #require(registry.widget(kind: "fixture.older")?.bundle)
        #expect(bundle.abiVersion == ABIVersion(major: 1, minor: 0))
        #expect(bundle.requestedMemoryLimit == nil, "1.0 has no memory_limit: the host does not read past its struct")
        // A 1.0 bundle could declare an intent configuration before schemas existed (1.2): it loads,
        // with no parameters.
        let configurable = WidgetRegistry.load(searchPath: [Fixtures.directory(["abi-1-0-configurable"]).path])
        #expect(configurable.problems.isEmpty, "\(configurable.problems)")
        let widget = try #require(configurable.widget(kind: "fixture.older-configurable"))
        #expect(widget.configurationKind == .intent)
        #expect(widget.configuration?.parameters.isEmpty == true)
    }

    @Test func bundleWhoseStructIsSmallerThanABI10IsRefused() throws {
        let (registry, _) = refusal(["small.so": "small-struct"])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .invalidBundle)
        #expect(problem.message.hasPrefix("widget_bundle_t.struct_size 8 is smaller than ABI 1.0's "))
    }

    @Test func bundleWithoutARequestFunctionIsRefused() throws {
        let (registry, _) = refusal(["null.so": "null-request"])
        #expect(try #require(onlyProblem(registry)).message == "widget_bundle_t lacks its initialize or request function")
    }

    @Test func widgetWithUnknownFamilyBitsOrConfigurationKindIsRefused() throws {
        let directory = Fixtures.directory(["unknown-family", "unknown-configuration"])
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        #expect(registry.problems.map(\.message) == [
            "widget \"fixture.good\" has unknown configuration kind 7",
            "widget \"fixture.good\" names unknown families (mask 0x400)",
        ])
        #expect(registry.widgets.isEmpty)
    }

    @Test func aConfigurationSchemaThatIsNotJSONOrNotValidRefusesTheWidget() throws {
        let directory = Fixtures.directory([
            "schema-not-json", "schema-bad-type", "static-with-schema", "schema-bad-default", "schema-default-wrong-type", "configurable-without-schema",
        ])
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        // In the order of the files' names.
        #expect(registry.problems.map(\.message) == [
            "widget \"fixture.good\" is configurable (AppIntentConfiguration) but describes no configuration schema",
            #"widget "fixture.good" has an invalid configuration schema: parameters[0].default: "DOGE" is not one of the cases"#,
            #"widget "fixture.good" has an invalid configuration schema: parameters[0].type: unknown type "color" (string, integer, double, boolean, date, url, enum, entity)"#,
            #"widget "fixture.good" has an invalid configuration schema: parameters[0].default: "three" is not a value of type integer"#,
            "widget \"fixture.good\" has a malformed configuration schema: invalid JSON at byte 1: expected a member name",
            "widget \"fixture.good\" is static but describes configuration parameters",
        ])
        #expect(registry.widgets.isEmpty)
    }

    @Test func widgetsRegisteredBeforeAFailedInitializeAreWithdrawn() throws {
        let (registry, _) = refusal(["withdrawn.so": "fails-after-registering"])
        #expect(try #require(onlyProblem(registry)).message == "initialization failed: gave up after registering")
        #expect(registry.widget(kind: "fixture.withdrawn") == nil)
        #expect(registry.widgets.map(\.kind) == ["fixture.good"])
    }

    @Test func sameFileReachedTwiceIsLoadedOnce() throws {
        let first = Fixtures.directory(["good"])
        let second = Fixtures.temporaryDirectory("plugins")
        try FileManager.default.createSymbolicLink(atPath: second.appendingPathComponent("again.so").path, withDestinationPath: first.appendingPathComponent("good.so").path)
        let registry = WidgetRegistry.load(searchPath: [first.path, second.path])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .alreadyLoaded)
        #expect(problem.message == "the same file as \(first.path)/good.so, already loaded; skipped")
    }

    @Test func symlinkIntoALooseDirectoryIsRefused() throws {
        let loose = Fixtures.directory(["good"])
        chmod(loose.path, 0o777)
        let directory = Fixtures.temporaryDirectory("plugins")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("good.so").path, withDestinationPath: loose.appendingPathComponent("good.so").path)
        let problem = try #require(WidgetRegistry.load(searchPath: [directory.path]).problems.first)
        #expect(problem.reason == .insecurePermissions)
        // The directories of the file it resolves to are checked, as the link's own are.
        #expect(problem.message == "refused: the directory \(loose.path) above it is writable by group or others (mode 0777); run 'chmod go-w \(loose.path)'")
    }

    @Test func bundleWithoutTheEntrySymbolIsRefused() throws {
        let (registry, _) = refusal(["no-entry.so": "no-entry"])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .missingEntrySymbol)
        #expect(problem.message.hasPrefix("no widget_bundle_entry symbol"))
    }

    @Test func bundleWhoseEntryReturnsNullIsRefused() throws {
        let (registry, _) = refusal(["null.so": "null-entry"])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .invalidBundle)
        #expect(problem.message == "widget_bundle_entry returned NULL")
    }

    @Test func bundleWithWrongABIMajorVersionIsRefusedNamingBothVersions() throws {
        let (registry, _) = refusal(["abi.so": "abi-major-2"])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .abiMismatch)
        #expect(problem.message == "ABI version 2.7 is not supported: this host speaks ABI 1.7 (major versions must match)")
    }

    @Test func bundleNeedingANewerMinorVersionIsRefused() throws {
        let (registry, _) = refusal(["newer.so": "abi-minor-newer"])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .abiMismatch)
        #expect(problem.message == "needs ABI 1.99, newer than this host's 1.7: update the host")
    }

    @Test func bundleWhoseInitializeFailsIsRefusedWithItsReason() throws {
        let (registry, _) = refusal(["init.so": "init-fails"])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .initializationFailed)
        #expect(problem.message == "initialization failed: the fixture's data file is missing")
    }

    @Test func kindRegisteredTwiceInOneBundleKeepsTheFirstRegistration() throws {
        let registry = WidgetRegistry.load(searchPath: [Fixtures.directory(["register-twice"]).path])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .duplicateKind)
        #expect(problem.message.contains("registered twice in this bundle"))
        #expect(try #require(registry.widget(kind: "fixture.good")).families == [.systemSmall, .systemMedium])
    }

    /// A bundle that registers thousands of widgets, the last with a kind of 1 MiB, is told what it
    /// may, the same in both isolation modes: the first 1000 registrations are taken (each found
    /// by hash, not by a search of those before it), the rest counted in one problem, and the long
    /// kind is refused by its length wherever it is read.
    @Test(arguments: ["process", "queue"])
    func registrationsPastWhatABundleMayAreCountedNotKept(mode: String) async throws {
        let directory = Fixtures.directory(["many.so": "many", "long.so": "long-kind"])
        let isolation: Isolation = mode == "queue" ? .queue : .process(ProcessIsolation(workerExecutable: Fixtures.workerExecutable))
        let registry = await blocking { WidgetRegistry.load(searchPath: [directory.path], isolation: isolation) }
        defer { registry.shutDownWorkers() }
        let many = registry.widgets.filter { $0.bundle.fileName == "many.so" }
        #expect(many.count == 1000)
        #expect(many.last?.kind == "fixture.many.999")
        #expect(registry.widget(kind: "fixture.many.1000") == nil)
        let counted = try #require(registry.problems.first { $0.path.hasSuffix("/many.so") })
        #expect(counted.message == "registers 4002 widgets, more than the 1000 a bundle may; the first 1000 registrations are taken")
        #expect(registry.problems.filter { $0.path.hasSuffix("/many.so") }.count == 1, "\(registry.problems)")
        let long = try #require(registry.problems.first { $0.path.hasSuffix("/long.so") })
        #expect(long.reason == .invalidWidget)
        #expect(long.message == "a widget kind is longer than 1000 bytes (1048576 bytes): \"\(String(repeating: "k", count: 40))…\"")
        #expect(registry.widget(kind: "fixture.good")?.bundle.fileName == "long.so", "the widget it registers after the long kind loads")
    }

    @Test func kindRegisteredByTwoBundlesGoesToTheFirstInByteOrder() throws {
        // "B.so" sorts before "a.so" in byte order, whatever the locale.
        let directory = Fixtures.directory(["a.so": "good", "B.so": "good"])
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .duplicateKind)
        #expect(problem.path == directory.appendingPathComponent("a.so").path)
        #expect(problem.message.contains("already registered by \(directory.appendingPathComponent("B.so").path)"))
        #expect(registry.widget(kind: "fixture.good")?.bundle.fileName == "B.so")
    }

    @Test func kindRegisteredInTwoSearchPathDirectoriesGoesToTheEarlierDirectory() throws {
        let first = Fixtures.directory(["z.so": "good"])
        let second = Fixtures.directory(["a.so": "good"])
        let registry = WidgetRegistry.load(searchPath: [first.path, second.path])
        #expect(registry.widget(kind: "fixture.good")?.bundle.path == first.appendingPathComponent("z.so").path)
        #expect(registry.problems.map(\.path) == [second.appendingPathComponent("a.so").path])
    }

    @Test func widgetWithEmptyKindIsRefusedAndItsSiblingLoads() throws {
        let (registry, _) = refusal(["empty.so": "empty-kind"])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .invalidWidget)
        #expect(problem.message == "a widget was registered with an empty kind")
        #expect(registry.widget(kind: "fixture.beside-empty") != nil)
    }

    @Test func widgetWithNoFamilyIsRefusedAndItsSiblingLoads() throws {
        let (registry, _) = refusal(["nofamily.so": "no-family"])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .invalidWidget)
        #expect(problem.message == "widget \"fixture.no-family\" supports no family")
        #expect(registry.widget(kind: "fixture.beside-no-family") != nil)
    }

    @Test func bundleWithUnresolvedSymbolsIsRefusedWithTheLoadersReason() throws {
        let (registry, _) = refusal(["undefined.so": "undefined-symbol"])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .dlopenFailed)
        #expect(problem.message.contains("widget_fixture_function_nobody_defines"))
    }

    @Test func swiftBundleFromAnotherCompilerIsRefused() throws {
        let (registry, _) = refusal(["old.so": "old-swift"])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .toolchainMismatch)
        #expect(problem.message.hasPrefix("built with swift-5.10, but this host was built with \(Toolchain.current)"))
    }

    @Test func bundleWritableByGroupOrOthersIsRefused() throws {
        let (_, directory) = refusal([:])
        let loose = directory.appendingPathComponent("loose.so")
        try FileManager.default.copyItem(atPath: Fixtures.path("named-by-file"), toPath: loose.path)
        chmod(loose.path, 0o664)
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        let problem = try #require(onlyProblem(registry))
        #expect(problem.reason == .insecurePermissions)
        #expect(problem.message == "refused: writable by group or others (mode 0664); run 'chmod go-w \(loose.path)'")
        #expect(registry.widget(kind: "fixture.loose") == nil)
    }

    @Test func directoryWritableByOthersIsRefusedWhole() throws {
        let directory = Fixtures.directory(["good"])
        chmod(directory.path, 0o777)
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        let problem = try #require(registry.problems.first)
        #expect(problem.reason == .insecurePermissions)
        #expect(problem.path == directory.path)
        #expect(problem.message.contains("mode 0777"))
        #expect(registry.widgets.isEmpty)
    }

    @Test func loadingOneFileChecksItsDirectoryToo() throws {
        let directory = Fixtures.directory(["good"])
        chmod(directory.path, 0o775)
        let registry = WidgetRegistry()
        #expect(registry.load(file: directory.appendingPathComponent("good.so").path) == nil)
        #expect(registry.problems.first?.message.contains("the directory \(directory.path) above it is writable by group or others") == true)
    }

    @Test func danglingSymlinkIsRefusedNamingItsTarget() throws {
        let (_, directory) = refusal([:])
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("gone.so").path, withDestinationPath: "/nonexistent/gone.so")
        let problem = try #require(onlyProblem(WidgetRegistry.load(searchPath: [directory.path])))
        #expect(problem.reason == .danglingSymlink)
        #expect(problem.message == "dangling symbolic link to /nonexistent/gone.so")
    }

    @Test func symlinkToABundleLoadsIt() throws {
        let directory = Fixtures.temporaryDirectory("plugins")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("linked.so").path, withDestinationPath: Fixtures.path("good"))
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        #expect(registry.problems.isEmpty)
        #expect(registry.widget(kind: "fixture.good")?.bundle.fileName == "linked.so")
    }

    @Test func directoryNamedSoAndFilesWithOtherSuffixesAreNotLoaded() throws {
        let directory = Fixtures.directory(["good"])
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("folder.so"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: Fixtures.path("named-by-file"), toPath: directory.appendingPathComponent("other.so.bak").path)
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        #expect(registry.widgets.map(\.kind) == ["fixture.good"])
        #expect(registry.problems.map(\.reason) == [.notRegularFile])
    }

    @Test func missingDirectoryIsAnEmptyListNotAnError() {
        let registry = WidgetRegistry.load(searchPath: ["/nonexistent/widgets.d"])
        #expect(registry.widgets.isEmpty)
        #expect(registry.problems.isEmpty)
        #expect(registry.missingDirectories == ["/nonexistent/widgets.d"])
    }

    @Test func bundlesLoadInByteOrderOfTheirNames() throws {
        let directory = Fixtures.directory(["b.so": "named-by-file", "a.so": "named-by-file", "c.so": "named-by-file"])
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        #expect(registry.widgets.map(\.kind) == ["fixture.a", "fixture.b", "fixture.c"])
    }
}

/// The loader's checks of who may have put a bundle where it is, and that the file it checks is the
/// file it loads (issue 20).
@Suite struct BundleOwnershipTests {
    static let nobody: uid_t = 65534

    func refusal(_ directory: URL) -> LoadProblem? {
        WidgetRegistry.load(searchPath: [directory.path]).problems.first
    }

    @Test(.enabled(if: getuid() == 0, "needs root, to give a file to another user"))
    func aFileOwnedByAnotherUserIsRefused() throws {
        let directory = Fixtures.directory(["good"])
        let file = directory.appendingPathComponent("good.so").path
        #expect(chown(file, Self.nobody, Self.nobody) == 0)
        let problem = try #require(refusal(directory))
        #expect(problem.reason == .insecurePermissions)
        #expect(problem.message == "refused: owned by nobody (uid 65534), not by root; if you trust it, take it: 'chown root \(file)'")
    }

    @Test(.enabled(if: getuid() == 0, "needs root, to give a directory to another user"))
    func aDirectoryAboveOwnedByAnotherUserIsRefused() throws {
        let parent = Fixtures.temporaryDirectory("theirs")
        let directory = parent.appendingPathComponent("widgets.d")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        chmod(directory.path, 0o755)
        try FileManager.default.copyItem(atPath: Fixtures.path("good"), toPath: directory.appendingPathComponent("good.so").path)
        #expect(chown(parent.path, Self.nobody, Self.nobody) == 0)
        let problem = try #require(refusal(directory))
        #expect(problem.message == "refused: the directory \(parent.path) above it is owned by nobody (uid 65534), not by root: its owner may put any file there")
    }

    @Test func aWorldWritableParentIsRefusedUnlessSticky() throws {
        let parent = Fixtures.temporaryDirectory("open")
        let directory = parent.appendingPathComponent("widgets.d")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        chmod(directory.path, 0o755)
        try FileManager.default.copyItem(atPath: Fixtures.path("good"), toPath: directory.appendingPathComponent("good.so").path)
        chmod(parent.path, 0o777)
        let problem = try #require(refusal(directory))
        #expect(problem.message == "refused: the directory \(parent.path) above it is writable by group or others (mode 0777); run 'chmod go-w \(parent.path)'")
        // Sticky, as /tmp is: no one else may rename or remove what is in it.
        chmod(parent.path, 0o1777)
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        #expect(registry.problems.isEmpty, "\(registry.problems)")
        #expect(registry.widget(kind: "fixture.good") != nil)
    }

    @Test func setuidAndSetgidFilesAreRefused() throws {
        for mode: mode_t in [0o4755, 0o2755] {
            let directory = Fixtures.directory(["good"])
            chmod(directory.appendingPathComponent("good.so").path, mode)
            let problem = try #require(refusal(directory))
            #expect(problem.message.hasPrefix("refused: setuid or setgid (mode \(String(mode, radix: 8)))"), "\(problem.message)")
        }
    }

    /// A FIFO where a bundle should be is refused at once: opened without waiting, it never hangs.
    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let directory = Fixtures.temporaryDirectory("fifo")
        #expect(mkfifo(directory.appendingPathComponent("pipe.so").path, 0o644) == 0)
        let problem = try #require(refusal(directory))
        #expect(problem.reason == .notRegularFile)
        #expect(problem.message == "not a regular file (a FIFO)")
    }

    @Test func aLoopOfSymbolicLinksIsCalledALoop() throws {
        let directory = Fixtures.temporaryDirectory("loop")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("a.so").path, withDestinationPath: "b.so")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("b.so").path, withDestinationPath: "a.so")
        let problem = try #require(refusal(directory))
        #expect(problem.message == "refused: a loop of symbolic links")
    }

    /// The file checked is the file loaded: renamed over after the check, the path names another
    /// file, but the descriptor loads the one checked.
    @Test func theFileLoadedIsTheFileChecked() throws {
        let directory = Fixtures.directory(["good"])
        let path = directory.appendingPathComponent("good.so").path
        let file = try BundleFile.open(path).get()
        defer { file.close() }
        // A loose file with another widget takes the path.
        let swapped = directory.appendingPathComponent("swap.tmp").path
        try FileManager.default.copyItem(atPath: Fixtures.path("named-by-file"), toPath: swapped)
        chmod(swapped, 0o666)
        #expect(rename(swapped, path) == 0)
        var checked = stat()
        #expect(stat(file.loadPath, &checked) == 0)
        #expect(UInt64(checked.st_ino) == file.inode, "the descriptor still names the file checked")
        var now = stat()
        #expect(stat(path, &now) == 0 && UInt64(now.st_ino) != file.inode, "the path names the new one")
    }
}
