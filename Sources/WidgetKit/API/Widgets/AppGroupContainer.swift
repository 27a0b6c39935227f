public import Foundation
import Synchronization
import WidgetWire

extension FileManager {
    /// The directory an app and its widgets share, as an App Group container does on iOS:
    /// `$XDG_DATA_HOME/widgets/groups/<groupIdentifier>/` (`~/.local/share/...` when unset), created
    /// on first use with owner-only permissions.
    ///
    /// Returns nil for an identifier that cannot name a directory (empty, `.`/`..`, or containing `/`),
    /// for a group the bundle's entitlements do not name (when it has entitlements: a bundle built by
    /// `widgets build` from an extension with `com.apple.security.application-groups`), as iOS does,
    /// or when the directory cannot be created.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        guard !groupIdentifier.isEmpty, groupIdentifier != ".", groupIdentifier != "..",
            !groupIdentifier.contains("/"), !groupIdentifier.contains("\0")
        else { return nil }
        if let groups = BundleResources.shared.applicationGroups, !groups.contains(groupIdentifier) {
            AssetWarnings.once(
                "the app group \"\(groupIdentifier)\" is not in the bundle's entitlements (\(groups.sorted().joined(separator: ", "))); "
                    + "containerURL(forSecurityApplicationGroupIdentifier:) is nil, as on iOS")
            return nil
        }
        AppGroupsUsed.note(groupIdentifier)
        let url = URL(fileURLWithPath: XDGBaseDirectory.dataHome()).appendingPathComponent("widgets/groups/\(groupIdentifier)", isDirectory: true)
        do {
            try createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return nil
        }
        return url
    }
}

/// The app groups this process has used through the SDK (containers, shared defaults): what ties an
/// app to its widgets when it asks the host to reload them (`WidgetCenter.reloadAllTimelines()`).
enum AppGroupsUsed {
    private static let groups = Mutex<Set<String>>([])

    static func note(_ group: String) { groups.withLock { _ = $0.insert(group) } }
    static var all: [String] { groups.withLock { $0.sorted() } }
}
