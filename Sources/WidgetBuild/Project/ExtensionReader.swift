import FoundationEssentials
import WidgetSupport

/// Reads what `widgets build PATH` is given: an `.xcodeproj` (or a folder holding one, or its
/// `project.pbxproj`), whose widget extension target is built; else a folder of an extension's files.
public enum ExtensionReader {
    public static func read(_ path: String, target: String?, swiftVersion: String?, release: Bool, excluding patterns: [String] = []) throws(BuildError) -> ExtensionSource {
        var source = try readAll(path, target: target, swiftVersion: swiftVersion, release: release)
        source.exclude(patterns)
        guard !source.swiftFiles.isEmpty else { throw BuildError("\(source.origin): --exclude leaves no Swift files") }
        try source.settleRemoteProducts()
        return source
    }

    static func readAll(_ path: String, target: String?, swiftVersion: String?, release: Bool) throws(BuildError) -> ExtensionSource {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BuildError("\(path): no such file or folder")
        }
        var project: String?
        if path.hasSuffix(".xcodeproj") || path.hasSuffix(".xcodeproj/") || path.hasSuffix("project.pbxproj") {
            project = path
        } else if isDirectory {
            let projects = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".xcodeproj") }.sorted()
            if projects.count > 1 {
                throw BuildError("\(path) holds \(projects.count) Xcode projects (\(projects.joined(separator: ", "))): name the one to build")
            }
            project = projects.first.map { path + "/" + $0 }
        } else {
            throw BuildError("\(path): not a folder or an .xcodeproj (widgets build takes an extension's folder or an Xcode project)")
        }
        guard let project else {
            if target != nil { throw BuildError("--target names a target of an Xcode project, and \(path) holds none") }
            return try FolderExtension.read(path, swiftVersion: swiftVersion)
        }
        let xcode = try XcodeProject.read(project)
        return try xcode.extensionSource(
            target: try xcode.widgetTarget(named: target), configuration: release ? "Release" : "Debug", swiftVersion: swiftVersion)
    }

    /// The folders a build reads from, to watch for saves: those of every file it takes, the asset
    /// catalogs' folders within, a folder extension's every folder, and the project's.
    public static func watchedPaths(of source: ExtensionSource) -> [String] {
        var folders: Set<String> = []
        let files = source.swiftFiles + source.intentDefinitions + source.stringCatalogs + source.localizedFiles.map(\.path)
            + source.frameworks.flatMap(\.swiftFiles) + [source.infoPlist, source.entitlements].compactMap { $0 }
        for file in files { folders.insert(file.pathDirectory) }
        func walk(_ folder: String, depth: Int) {
            guard depth < 16, folders.count < 4096 else { return }
            folders.insert(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".") {
                var isDirectory = false
                if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory), isDirectory,
                    !name.hasSuffix(".xcodeproj"), !name.hasSuffix(".widgetbundle")
                {
                    walk(folder + "/" + name, depth: depth + 1)
                }
            }
        }
        for resource in source.assetCatalogs + source.otherResources { walk(resource, depth: 0) }
        for package in source.packageProducts { walk(package.packageDirectory, depth: 0) }
        if let project = source.projectFile {
            folders.insert(project.pathDirectory)
        } else {
            walk(source.origin, depth: 0)
        }
        return folders.filter { FileManager.default.fileExists(atPath: $0) }.sorted()
    }
}
