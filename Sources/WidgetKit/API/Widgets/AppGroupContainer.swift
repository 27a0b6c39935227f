public import Foundation
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
        let url = URL(fileURLWithPath: XDGBaseDirectory.dataHome()).appendingPathComponent("widgets/groups/\(groupIdentifier)", isDirectory: true)
        do {
            try createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return nil
        }
        return url
    }
}
