import FoundationEssentials
import WidgetSupport

/// An extension given as a folder of its files, as they sit in an Xcode project: every file below
/// it is the extension's (hidden ones, Xcode projects and workspaces, and SwiftPM's files aside),
/// sorted by kind as Xcode sorts a folder it is given. Built in Swift 5 mode, Xcode's default for a
/// new project, unless told otherwise.
public enum FolderExtension {
    public static func read(_ folder: String, swiftVersion: String? = nil) throws(BuildError) -> ExtensionSource {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            throw BuildError("\(folder): not a folder (widgets build takes an extension's folder or an .xcodeproj)")
        }
        let name = folder.pathFileName
        var settings = BuildSettings.defaults(target: name, projectDirectory: folder)
        settings["PRODUCT_BUNDLE_IDENTIFIER"] = "local.widgets.$(PRODUCT_NAME:rfc1034identifier)"
        settings["SWIFT_VERSION"] = swiftVersion ?? "5"
        // What Xcode's widget extension template sets.
        settings["ASSETCATALOG_COMPILER_WIDGET_BACKGROUND_COLOR_NAME"] = "WidgetBackground"
        var source = ExtensionSource(name: name, origin: folder, swiftVersion: swiftVersion ?? "5", settings: settings)
        try walk(folder, into: &source, depth: 0)
        guard !source.swiftFiles.isEmpty else { throw BuildError("\(folder): no Swift files in it or below it") }
        return source
    }

    static let skipped: Set<String> = ["Package.swift", "Package.resolved", "DerivedData"]

    private static func walk(_ folder: String, into source: inout ExtensionSource, depth: Int) throws(BuildError) {
        guard depth < 32 else { throw BuildError("\(folder): folders nested more than 32 deep") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw BuildError("\(folder): cannot list: \(error.explanation)")
        }
        for name in names where !name.hasPrefix(".") && !skipped.contains(name) {
            let path = folder + "/" + name
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            let lowered = name.lowercased()
            if isDirectory {
                if lowered.hasSuffix(".xcodeproj") || lowered.hasSuffix(".xcworkspace") || lowered.hasSuffix(".widgetbundle") { continue }
                if lowered.hasSuffix(".xcassets") {
                    source.add(path, isDirectory: true)
                } else {
                    try walk(path, into: &source, depth: depth + 1)
                }
            } else {
                source.add(path, isDirectory: false)
            }
        }
    }
}
