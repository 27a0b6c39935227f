public import Foundation

extension FileManager {
    /// The directory an app and its widgets share, as an App Group container does on iOS:
    /// `$XDG_DATA_HOME/widgets/groups/<groupIdentifier>/` (`~/.local/share/...` when unset), created
    /// on first use with owner-only permissions.
    ///
    /// Returns nil for an identifier that cannot name a directory (empty, `.`/`..`, or containing `/`),
    /// or when the directory cannot be created.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        guard !groupIdentifier.isEmpty, groupIdentifier != ".", groupIdentifier != "..",
            !groupIdentifier.contains("/"), !groupIdentifier.contains("\0")
        else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        let url = URL(fileURLWithPath: dataHome).appendingPathComponent("widgets/groups/\(groupIdentifier)", isDirectory: true)
        do {
            try createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return nil
        }
        return url
    }
}
