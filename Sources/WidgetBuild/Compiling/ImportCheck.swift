import FoundationEssentials
import Glibc
import Synchronization
import WidgetSupport

/// Finds the modules an extension's files import that do not exist here, before the compiler
/// stops at the first: each named with the files that import it, and what it is where Linux has no
/// such framework, so that a port knows at once which widgets to leave out. An import inside an
/// `#if` is left alone (the condition may keep it out).
enum ImportCheck {
    /// Apple's frameworks widget code imports that Linux has no counterpart of, and what they are.
    static let appleFrameworks: [String: String] = [
        "AVFoundation": "Apple's audio and video framework", "AVKit": "Apple's media player views", "CoreData": "Apple's object store",
        "SwiftData": "Apple's object store", "MapKit": "Apple's maps",
        "HealthKit": "Apple's health store", "EventKit": "Apple's calendars", "Contacts": "Apple's address book", "Photos": "Apple's photo library",
        "StoreKit": "the App Store", "CloudKit": "iCloud", "GameKit": "Game Center", "MusicKit": "Apple Music", "WeatherKit": "Apple's weather service",
        "CoreMotion": "the device's motion sensors", "AppKit": "macOS's views", "WatchKit": "watchOS's views", "ClockKit": "watchOS complications",
"CoreImage": "Apple's image filters", "QuartzCore": "Apple's animation layers",
        "UserNotifications": "Apple's notification center", "SafariServices": "Safari's views", "LocalAuthentication": "Face ID and Touch ID",
        "Security": "Apple's keychain", "CryptoKit": "Apple's cryptography", "Network": "Apple's networking framework", "CoreSpotlight": "Spotlight",
        "PhotosUI": "the photo picker", "WebKit": "Apple's web views", "TipKit": "Apple's tips",
    ]

    /// The modules that exist for an extension: the toolchain's, the SDK's, its packages' and its own.
    static func available(compiler: SwiftCompiler, extra: [String]) -> Set<String> {
        var names = Set(WidgetSDK.swiftModules + WidgetSDK.cModules + extra)
        names.formUnion(["Swift", "_Concurrency", "_StringProcessing"])
        let library = compiler.path.pathDirectory.pathDirectory + "/lib/swift/linux"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: library)) ?? [] where name.hasSuffix(".swiftmodule") {
            names.insert(String(name.dropLast(".swiftmodule".count)))
        }
        return names
    }

    /// The modules `files` import unconditionally (or also under an `#if`), each with the files importing it.
    static func imports(of files: [String], includingConditional: Bool = false) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for file in files {
            for (module, conditional) in scan(file) where includingConditional || !conditional { found[module, default: []].append(file) }
        }
        return found
    }

    /// A file's imports, in order, each with whether it is under an `#if`; none for a file not read.
    private typealias Scan = [(module: String, conditional: Bool)]

    /// Each file's scan, by path, with its size, inode and times (modified, changed) when read: a
    /// build asks about the same files several times (the frameworks to build, the packages, the
    /// remote products, the modules missing) and reads each once; a file changed since is read
    /// again (its times set back as `cp -p` sets them, its change time tells). A file modified within
    /// the last two seconds is not kept, as git keeps no "racy" entry: an edit in the same tick of a
    /// coarse clock would leave its times as they were.
    private static let scans = Mutex<[String: (stamp: [Int], scan: Scan)]>([:])

    private static func scan(_ file: String) -> Scan {
        var status = stat()
        let stamp =
            stat(file, &status) == 0
            ? [Int(status.st_size), Int(status.st_ino), status.st_mtim.tv_sec, status.st_mtim.tv_nsec, status.st_ctim.tv_sec, status.st_ctim.tv_nsec] : []
        if !stamp.isEmpty, let known = scans.withLock({ $0[file] }), known.stamp == stamp { return known.scan }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
        var found: Scan = []
        var depth = 0
        var inComment = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = raw.trimmingSpaces
            if inComment {
                guard let end = line.firstRange(of: "*/") else { continue }
                line = String(line[end.upperBound...]).trimmingSpaces
                inComment = false
            }
            if line.hasPrefix("/*"), !line.contains("*/") {
                inComment = true
                continue
            }
            if line.hasPrefix("#if") { depth += 1 }
            if line.hasPrefix("#endif") { depth = max(0, depth - 1) }
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains(first) {
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { continue }
            var module = words[1]
            if ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(module), words.count >= 3 { module = words[2] }
            module = String(module.prefix { $0 != "." && $0 != ";" })
            guard !module.isEmpty else { continue }
            found.append((module, depth > 0))
        }
        if !stamp.isEmpty, status.st_mtim.tv_sec < time(nil) - 2 { scans.withLock { $0[file] = (stamp, found) } }
        return found
    }

    /// Whose files import: what the error calls them, and what it advises.
    enum Importer: String {
        case theExtension = "the extension"
        case package = "the package"
        case framework = "the framework"
    }

    /// The error for files (an extension's, or a package target's, read from `origin`) importing
    /// modules that do not exist here; nil when all do.
    static func problem(
        origin: String, root: String, files: [String], available: Set<String>, ownModule: String, frameworks: [String], subject: Importer = .theExtension
    ) -> BuildError? {
        let missing = imports(of: files).filter { !available.contains($0.key) && $0.key != ownModule }
        guard !missing.isEmpty else { return nil }
        func relative(_ path: String) -> String {
            let base = root + "/"
            return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
        }
        let frameworks = Set(frameworks.map { $0.pathFileName.pathWithoutExtension })
        let parts = missing.sorted { $0.key < $1.key }.map { module, files in
            let what = appleFrameworks[module].map { " (\($0), which Linux does not have)" }
                ?? (frameworks.contains(module) ? " (a binary framework built for Apple's platforms)" : " (no such module here)")
            return "\(module)\(what), imported by \(files.map(relative).sorted().joined(separator: ", "))"
        }
        let advice =
            switch subject {
            case .theExtension:
                "Leave the widgets that need them out of the WidgetBundle, and their files out of the build (--exclude PATTERN; docs/PORTING.md)"
            case .package:
                "Leave the files that need them out of the target (exclude: in its Package.swift), or the package out of the extension (docs/PORTING.md)"
            case .framework:
                "Leave the files that need them out of the build (--exclude PATTERN reaches the framework's files too), or the extension's files that import the framework (docs/PORTING.md)"
            }
        return BuildError(
            "\(origin): \(subject.rawValue) imports modules that do not exist on Linux: \(parts.joined(separator: "; ")). \(advice)")
    }
}
