import Foundation
import Glibc
import Testing
import WidgetTestSupport

/// `make install` and `make uninstall` as a user runs them, into a DESTDIR: the files and their
/// modes, the installed `widgets` finding its sample bundles from any directory, and nothing left
/// behind. The tests' own debug build is installed (`-o build`: nothing is built here, and SwiftPM,
/// whose lock the running tests hold, is not asked where the build is).
@Suite struct InstallTests {
    /// `home`: the user's home directory make sees (its systemd links), when not the tests' own.
    func make(_ target: String, destination: URL, home: URL? = nil) async -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        if let home {
            environment["HOME"] = home.path
            environment["XDG_CONFIG_HOME"] = nil
        }
        return await runProcess(
            "/usr/bin/env",
            ["make", "-o", "build", target, "RELEASE=\(Fixtures.productsDirectory.path)", "PREFIX=/usr", "DESTDIR=\(destination.path)"],
            environment: environment, directory: Fixtures.repositoryRoot)
    }

    func mode(_ url: URL) -> mode_t? {
        var info = stat()
        return stat(url.path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// Every regular file under a directory, relative to it, sorted.
    func files(under root: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(path)
            }
        }
        return found.sorted()
    }

    @Test func installPutsEverythingUnderThePrefixAndUninstallTakesItAway() async throws {
        let destination = Fixtures.temporaryDirectory("destdir")
        let checkoutBundles = try? FileManager.default.contentsOfDirectory(atPath: Fixtures.repositoryRoot.appendingPathComponent("widgets.d").path).sorted()
        let installed = await make("install", destination: destination)
        try #require(installed.status == 0, "make install: \(installed.standardOutput)\(installed.standardError)")

        let prefix = destination.appendingPathComponent("usr")
        // The SDK widgets build compiles against, whole (its files are many: a few stand for them).
        let sdkFiles = files(under: prefix.appendingPathComponent("lib/widgets/sdk"))
        for expected in [
            "Modules/WidgetKit.swiftmodule", "Modules/SwiftUI.swiftmodule", "Modules/Combine.swiftmodule", "Modules/ActivityKit.swiftmodule", "include/CWidgetKit/module.modulemap",
            "include/CWidgetABI/widget_abi.h", "bin/WidgetKitMacros-tool", "toolchain",
        ] {
            #expect(sdkFiles.contains(expected), "\(expected) is not in the installed SDK: \(sdkFiles)")
        }
        #expect(sdkFiles.contains { $0.hasPrefix("lib/WidgetKit-") && $0.hasSuffix(".o") }, "\(sdkFiles)")
        // The documents help names, where the installed help finds them.
        let documents = files(under: prefix.appendingPathComponent("share/doc/widgets"))
        #expect(documents.contains("WEB.md") && documents.contains("PORTING.md") && documents.contains("README.md"), "\(documents)")
        #expect(
            files(under: prefix).filter { !$0.hasPrefix("lib/widgets/sdk/") && !$0.hasPrefix("share/doc/widgets/") } == [
                "bin/.debug/widgets.debug", "bin/game-app", "bin/widgets", "lib/widgets/widgets-worker",
                "lib/widgets/widgets.d/libCryptoWidgets.so", "lib/widgets/widgets.d/libGameWidgets.so",
                "lib/widgets/widgets.d/libHostInfo.so", "lib/widgets/widgets.d/libSystemWidgets.so",
                "share/applications/widgets-home.desktop", "share/bash-completion/completions/widgets",
                "share/fish/vendor_completions.d/widgets.fish", "share/man/man1/widgets.1", "share/systemd/user/widgets-desktop.service",
                "share/systemd/user/widgets.service", "share/zsh/site-functions/_widgets",
            ])
        #expect(mode(prefix.appendingPathComponent("bin/widgets")) == 0o755)
        // widgets as distributions ship programs: its symbols and debug information in a file of their
        // own, which the link it carries names.
        let program = try Data(contentsOf: prefix.appendingPathComponent("bin/widgets"))
        let builtProgram = try Data(contentsOf: URL(fileURLWithPath: Fixtures.widgetsExecutable))
        #expect(program.contains(bytesOf: ".gnu_debuglink") && program.contains(bytesOf: "widgets.debug"))
        #expect(!program.contains(bytesOf: ".debug_info") && !program.contains(bytesOf: ".symtab"))
        #expect(
            builtProgram.contains(bytesOf: ".debug_info") && program.count < builtProgram.count * 3 / 4, "\(program.count) of \(builtProgram.count) bytes")
        let debugInformation = try Data(contentsOf: prefix.appendingPathComponent("bin/.debug/widgets.debug"))
        #expect(debugInformation.contains(bytesOf: ".debug_info") && debugInformation.contains(bytesOf: ".symtab"))
        #expect(mode(prefix.appendingPathComponent("lib/widgets/widgets-worker")) == 0o755)
        for bundle in ["libGameWidgets.so", "libSystemWidgets.so", "libCryptoWidgets.so", "libHostInfo.so"] {
            #expect(mode(prefix.appendingPathComponent("lib/widgets/widgets.d/\(bundle)")) == 0o644, "\(bundle)")
        }
        #expect(mode(prefix.appendingPathComponent("lib/widgets/widgets.d")) == 0o755)
        let manual = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/widgets.1"), encoding: .utf8)
        #expect(manual.hasPrefix(".TH WIDGETS 1"), "\(manual.prefix(80))")
        #expect(manual.contains("/usr/share/doc/widgets/WEB.md") && !manual.contains(Fixtures.repositoryRoot.path), "the installed documents, not the checkout's")
        let unit = try String(contentsOf: prefix.appendingPathComponent("share/systemd/user/widgets.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/widgets run") && !unit.contains("@BINDIR@"), "\(unit)")
        let desktopUnit = try String(contentsOf: prefix.appendingPathComponent("share/systemd/user/widgets-desktop.service"), encoding: .utf8)
        #expect(desktopUnit.contains("ExecStart=/usr/bin/widgets desktop\n") && desktopUnit.contains("PartOf=graphical-session.target"), "\(desktopUnit)")
        #expect(desktopUnit.contains("After=graphical-session.target widgets.service") && desktopUnit.contains("WantedBy=graphical-session.target"))
        #expect(try String(contentsOf: prefix.appendingPathComponent("share/bash-completion/completions/widgets"), encoding: .utf8).contains("complete "))
        // Nothing of the install went into the checkout.
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.repositoryRoot.appendingPathComponent("widgets.d").path).sorted()) == checkoutBundles)

        // The installed widgets, run from `/` by a user with no bundles of their own, lists the samples
        // (the Swift ones and the C one) from PREFIX/lib/widgets/widgets.d.
        let installedWidgets = prefix.appendingPathComponent("bin/widgets").path
        let listed = await widgets(["list", "--short"], executable: installedWidgets, directory: URL(fileURLWithPath: "/"))
        #expect(listed.status == 0, "\(listed.standardError)")
        for kind in ["org.widgets.system.clock", "com.mygame.game-status", "org.widgets.crypto.price", "org.widgets.host-info"] {
            #expect(listed.standardOutput.contains(kind), "\(kind) in \(listed.standardOutput)")
        }
        #expect(listed.standardOutput.contains("libSystemWidgets.so") && listed.standardOutput.contains("libHostInfo.so"), "\(listed.standardOutput)")
        // Swift bundles were loaded by PREFIX/lib/widgets/widgets-worker, as workers above and here
        // as the command itself (queue isolation).
        let queued = await widgets(["timeline", "org.widgets.system.clock", "--isolation", "queue"], executable: installedWidgets, directory: URL(fileURLWithPath: "/"))
        #expect(queued.status == 0 && queued.standardOutput.contains("entry 1"), "\(queued.standardOutput)\(queued.standardError)")

        // The installed widgets builds an extension against the installed SDK, from anywhere, and loads it.
        let built = Fixtures.temporaryDirectory("built")
        let build = await runProcess(
            installedWidgets, ["build", ExtensionBuildTests.fixture.path, "--out", built.path],
            environment: ExtensionBuildTests.environment(cache: Fixtures.temporaryDirectory("cache")), directory: URL(fileURLWithPath: "/"))
        #expect(build.status == 0, "\(build.standardOutput)\(build.standardError)")
        let sdk = await widgets(["sdk"], executable: installedWidgets, directory: URL(fileURLWithPath: "/"))
        #expect(sdk.standardOutput.contains(prefix.appendingPathComponent("lib/widgets/sdk").path), "\(sdk.standardOutput)\(sdk.standardError)")
        let forecast = await widgets(["--plugins", built.path, "timeline", "fixture.forecast"], executable: installedWidgets, directory: URL(fileURLWithPath: "/"))
        #expect(forecast.status == 0 && forecast.standardOutput.contains("sunny day"), "\(forecast.standardOutput)\(forecast.standardError)")

        let runHelp = await widgets(["run", "--help"], executable: installedWidgets, directory: URL(fileURLWithPath: "/"))
        #expect(runHelp.standardOutput.contains(prefix.appendingPathComponent("share/doc/widgets/WEB.md").path), "\(runHelp.standardOutput)")

        // The unit was enabled (a link in the user's systemd directory to the installed unit): once
        // the unit is gone, uninstall removes the link rather than leave it dangling. A link to
        // another file is not its to remove.
        let home = Fixtures.temporaryDirectory("home")
        let wants = home.appendingPathComponent(".config/systemd/user/default.target.wants")
        try FileManager.default.createDirectory(at: wants, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: wants.appendingPathComponent("widgets.service").path, withDestinationPath: "/usr/share/systemd/user/widgets.service")
        let session = home.appendingPathComponent(".config/systemd/user/graphical-session.target.wants")
        try FileManager.default.createDirectory(at: session, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: session.appendingPathComponent("widgets-desktop.service").path, withDestinationPath: "/usr/share/systemd/user/widgets-desktop.service")
        let other = home.appendingPathComponent(".config/systemd/user/other.target.wants")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: other.appendingPathComponent("widgets.service").path, withDestinationPath: "/opt/elsewhere/widgets.service")
        let removed = await make("uninstall", destination: destination, home: home)
        #expect(removed.status == 0, "make uninstall: \(removed.standardError)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: wants.appendingPathComponent("widgets.service").path)) == nil, "the dangling link is removed")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: session.appendingPathComponent("widgets-desktop.service").path)) == nil)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: other.appendingPathComponent("widgets.service").path)) != nil, "another's is kept")
        #expect(files(under: destination) == [], "left behind")
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("lib/widgets").path))
    }

    /// Through sudo nothing is built (root's files in .build would stop the user's next build): with
    /// no build to take, install says what to run first and installs nothing.
    @Test func installThroughSudoBuildsNothingAndNamesWhatIsMissing() async throws {
        let destination = Fixtures.temporaryDirectory("destdir")
        let empty = Fixtures.temporaryDirectory("release")
        let result = await runProcess(
            "/usr/bin/env", ["make", "install", "RELEASE=\(empty.path)", "PREFIX=/usr", "DESTDIR=\(destination.path)", "SUDO_USER=ada",
                // Were anything built, it would fail at once instead of waiting on SwiftPM's lock.
                "SWIFT=false",
            ],
            directory: Fixtures.repositoryRoot)
        #expect(result.status != 0)
        #expect(result.standardError.contains("make install: widgets is not built in '\(empty.path)'; run 'make build' first"), "\(result.standardError)")
        #expect(!result.standardOutput.contains("swift build"), "nothing built: \(result.standardOutput)")
        #expect(files(under: destination) == [])
    }
}
