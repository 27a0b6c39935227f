import FoundationEssentials
import WidgetBuild
import WidgetHost
import WidgetSupport
import WidgetWire

extension Options {
    static let target = Option<String>("target", value: "NAME", help: "the Xcode project's target to build (default: its one WidgetKit extension)")
    static let swiftVersion = Option<String>(
        "swift-version", value: "MODE", help: "the Swift language mode: 5 or 6 (default: the project's SWIFT_VERSION; 5 for a folder)",
        choices: ["5", "6"]
    ) { text in
        ["4", "4.2", "5", "6"].contains(text) ? .success(text) : .failure(UsageText("--swift-version takes 5 or 6, not '\(text)'"))
    }
    static let bundleOut = Option<String>(
        "out", value: "DIR", help: "where the bundle goes (default: $XDG_DATA_HOME/widgets/widgets.d, where a running host takes it up)")
    static let exclude = Option<String>(
        "exclude", value: "PATTERN", help: "leave out files whose path (from the project's folder) or name matches the pattern (repeat for several)",
        repeatable: true)
    static let release = Option(flag: "release", help: "build Xcode's Release configuration, optimized (default: Debug, as Xcode's Run)")
    static let rebuildOnSave = Option(flag: "watch", help: "build again at every save of the extension's files; a running host swaps the bundle in")
    static let installSDK = Option<String>("install", value: "DIR", help: "copy the SDK into DIR in its installed layout (make install does)")
}

extension Command {
    static let build = Command(
        "build", summary: "Build an iOS widget extension, its resources and all, into a bundle, and install it.",
        arguments: ["PATH"],
        options: [
            Options.target.spec, Options.swiftVersion.spec, Options.bundleOut.spec, Options.release.spec, Options.exclude.spec, Options.rebuildOnSave.spec,
        ],
        discussion: """
            PATH is a folder of the extension's files (Swift sources, Info.plist, asset catalogs, string catalogs,
            .strings in .lproj folders, intent definitions, entitlements), or an .xcodeproj (a folder holding
            one is taken as it). From a project, the target's files, shared files, build settings (SWIFT_VERSION,
            INFOPLIST_FILE, INFOPLIST_KEY_*, PRODUCT_BUNDLE_IDENTIFIER, CODE_SIGN_ENTITLEMENTS...) and local
            Swift packages are read as Xcode reads them. The files are compiled with swiftc against the SDK
            already built (only what changed since the last build), and the bundle, NAME.widgetbundle, is put
            into the bundle directory by renaming, where a running host takes it up at once. -v shows the
            commands. \(Documentation.path("PORTING.md")) says what each iOS file becomes.
            """
    ) { try await $0.build($0.positionals[0]) }

    static let sdk = Command(
        "sdk", summary: "Show the SDK widgets build compiles against; or install it into a directory.",
        options: [Options.installSDK.spec, Options.json.spec],
        discussion: """
            The SDK is the build directory this widgets was built in (a checkout), or PREFIX/lib/widgets/sdk (an
            installation), or $WIDGETS_SDK. --install DIR writes the installed layout (make install runs it).
            """
    ) { try $0.sdk() }
}

extension Invocation {
    /// `widgets sdk`: where the SDK is; `--install DIR` copies it there.
    func sdk() throws(UsageError) -> ExitCode {
        do {
            let sdk = try WidgetSDK.locate(executable: SwiftRuntime.executable)
            if let destination = try value(Options.installSDK) {
                try sdk.install(into: destination)
                output.standardOutput("installed the SDK (\(sdk.toolchain)) into \(destination)")
                return .success
            }
            if json {
                output.standardOutput(
                    JSONValue.object(
                        JSONObject([
                            ("root", .string(sdk.root)), ("installed", .bool(sdk.isInstalled)), ("toolchain", .string(sdk.toolchain)),
                            ("modules", .string(sdk.moduleDirectory)), ("objects", .number(Double(sdk.objects.count))),
                        ])
                    ).jsonText)
            } else {
                output.standardOutput("\(sdk.root) (\(sdk.isInstalled ? "installed" : "a build directory"), \(sdk.toolchain)): \(sdk.objects.count) objects")
            }
            return .success
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
    }

    /// `widgets build PATH`.
    func build(_ path: String) async throws(UsageError) -> ExitCode {
        let absolute = BundleSearchPath.absolute(path, in: FileManager.default.currentDirectoryPath)
        let verbose = isSet(Options.verbose)
        let output = self.output
        var echo: (@Sendable (String) -> Void)?
        if verbose { echo = { output.standardError($0) } }
        let runner = ProcessRunner(passesOutputThrough: true, echo: echo)
        let outputDirectory = try value(Options.bundleOut).map { BundleSearchPath.absolute($0, in: FileManager.default.currentDirectoryPath) }
            ?? XDGBaseDirectory.dataHome() + "/widgets/widgets.d"
        let release = isSet(Options.release)
        let target = try value(Options.target)
        let swiftVersion = try value(Options.swiftVersion)
        let excluded = try values(Options.exclude)
        let build: @Sendable () throws(BuildError) -> (BuildReport, [String]) = {
            let source = try ExtensionReader.read(absolute, target: target, swiftVersion: swiftVersion, release: release, excluding: excluded)
            let sdk = try WidgetSDK.locate(executable: SwiftRuntime.executable)
            let compiler = try SwiftCompiler.locate(runner: runner, cacheDirectory: XDGBaseDirectory.cacheHome() + "/widgets/build")
            try compiler.check(against: sdk)
            let options = BuildOptions(
                outputDirectory: outputDirectory, release: release, workDirectory: BuildOptions.workDirectory(for: source, release: release))
            let builder = BundleBuilder(source: source, sdk: sdk, compiler: compiler, options: options, runner: runner)
            return (try builder.build(), ExtensionReader.watchedPaths(of: source))
        }
        func once() -> (succeeded: Bool, watched: [String]) {
            do {
                let (report, watched) = try build()
                for warning in report.warnings { output.standardError("widgets: warning: \(warning)") }
                let what = report.installed ? (report.compiled ? "compiled" : report.linked ? "linked" : "resources changed") : "up to date"
                output.standardOutput("\(report.bundlePath) (\(what), \(cFormat("%.1f", report.seconds)) s)")
                if !BundleSearchPath.resolve().contains(outputDirectory) {
                    output.standardError("widgets: hint: \(outputDirectory) is not on the search path; the host loads it with --plugins \(outputDirectory)")
                }
                return (true, watched)
            } catch {
                output.standardError(error.printed)
                return (false, (try? ExtensionReader.read(absolute, target: target, swiftVersion: swiftVersion, release: release, excluding: excluded))
                    .map(ExtensionReader.watchedPaths) ?? [absolute])
            }
        }
        guard isSet(Options.rebuildOnSave) else { return once().succeeded ? .success : .failure }
        // Watching starts before the first build, so a save made while any build runs is not lost.
        let watcher: SourceWatcher
        do {
            watcher = try SourceWatcher()
            try watcher.watch((try? ExtensionReader.read(absolute, target: target, swiftVersion: swiftVersion, release: release, excluding: excluded))
                .map(ExtensionReader.watchedPaths) ?? [absolute])
        } catch {
            output.standardError("widgets: error: \(error)")
            return .failure
        }
        var watched = once().watched
        output.standardError("widgets: watching \(watched.count) folders; a save builds again (Ctrl-C stops)")
        let shared = _UncheckedSendableWatcher(watcher)
        while true {
            do {
                try watcher.watch(watched)
                _ = try await blocking { try shared.watcher.waitForChange() }
            } catch {
                output.standardError("widgets: error: \(error)")
                return .failure
            }
            watched = once().watched
        }
    }
}

/// The watcher, handed to the thread that waits on it while this one waits for that thread.
private struct _UncheckedSendableWatcher: @unchecked Sendable {
    let watcher: SourceWatcher
    init(_ watcher: SourceWatcher) { self.watcher = watcher }
}

/// Runs a blocking call on a thread of its own and awaits it.
private func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        startThread(named: "widgets.build") { continuation.resume(with: Result { try body() }) }
    }
}
