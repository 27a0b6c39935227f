import CWidgetKit
import Foundation
import WidgetWire

/// What the bundle carries beside its code, when it is a bundle with resources (`NAME.widgetbundle`,
/// made by `widgets build`): its Info.plist, entitlements, asset catalog and string tables. The host
/// names the bundle's directory when it initializes it (`widget_host_t.bundle_path`, ABI 1.6), so
/// this works in a worker process and in the host's own process alike; a lone `.so` has none.
final class BundleResources: @unchecked Sendable {
    static let shared = BundleResources()

    private let lock = NSLock()
    private var directoryURL: URL?
    private var info: [String: Any]?
    private var catalog: AssetCatalog?
    private var groups: Set<String>?
    private var tables: [String: StringTable] = [:]

    /// The bundle's directory, when it has resources.
    var directory: URL? { lock.withLock { directoryURL } }

    /// What a bundle with resources declares of itself, for its export: its identifier, the app
    /// groups of its entitlements, and the URL schemes its Info.plist claims (`CFBundleURLTypes`).
    /// Read before the host names the bundle's path: from where this image was loaded.
    var declaration: (identifier: String?, appGroups: [String], urlSchemes: [String]) {
        if directory == nil, let image = widgetkit_image_path() {
            defer { free(image) }
            let path = String(cString: image).pathDirectoryOnly
            if ResourceBundleLayout.isBundleDirectory(path) { setBundlePath(path) }
        }
        let info = infoDictionary
        let types = (info["CFBundleURLTypes"] as? [[String: Any]]) ?? []
        let schemes = types.flatMap { ($0["CFBundleURLSchemes"] as? [String]) ?? [] }
        return (bundleIdentifier, applicationGroups.map { $0.sorted() } ?? [], schemes)
    }

    /// Called once, as the host initializes the bundle, with the path the host found it at.
    func setBundlePath(_ path: String) {
        guard ResourceBundleLayout.isBundleDirectory(path) else { return }
        lock.withLock {
            directoryURL = URL(fileURLWithPath: path, isDirectory: true)
            info = nil
            catalog = nil
            groups = nil
            tables = [:]
        }
    }

    /// For tests: resources read from `directory`, as a bundle's would be.
    func use(directory: URL?) {
        lock.withLock {
            directoryURL = directory
            info = nil
            catalog = nil
            groups = nil
            tables = [:]
        }
    }

    /// Info.plist, read once; empty for a bundle without one.
    var infoDictionary: [String: Any] {
        lock.withLock {
            if let info { return info }
            let read = directoryURL.flatMap { Self.plist($0.appendingPathComponent(ResourceBundleLayout.infoPlist)) } ?? [:]
            info = read
            return read
        }
    }

    var bundleIdentifier: String? { infoDictionary["CFBundleIdentifier"] as? String }

    /// The compiled asset catalogs, read once; empty without.
    var assets: AssetCatalog {
        lock.withLock {
            if let catalog { return catalog }
            let read = directoryURL.map { AssetCatalog(directory: $0) } ?? AssetCatalog()
            catalog = read
            return read
        }
    }

    /// The app groups the bundle's entitlements name; nil when it has no entitlements (a lone `.so`,
    /// or a bundle built without them), which may use any group.
    var applicationGroups: Set<String>? {
        lock.withLock {
            if let groups { return groups }
            guard let directoryURL,
                let entitlements = Self.plist(directoryURL.appendingPathComponent(ResourceBundleLayout.entitlements))
            else { return nil }
            let read = Set((entitlements["com.apple.security.application-groups"] as? [String]) ?? [])
            groups = read
            return read
        }
    }

    /// The string table `name` (`Localizable` by default) in the languages the bundle has, read once.
    func table(_ name: String) -> StringTable {
        lock.withLock {
            if let table = tables[name] { return table }
            let table = directoryURL.map { StringTable(name: name, directory: $0, preferred: PreferredLanguages.current) } ?? StringTable()
            tables[name] = table
            return table
        }
    }

    /// A property list file's top-level dictionary, or nil when there is none or it is not one.
    static func plist(_ url: URL) -> [String: Any]? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }
}

extension String {
    /// The directory part of a path.
    var pathDirectoryOnly: String {
        guard let slash = lastIndex(of: "/") else { return "." }
        return slash == startIndex ? "/" : String(self[..<slash])
    }
}
