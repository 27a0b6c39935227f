public import Foundation

/// A colour set of the bundle's asset catalog, as the code Xcode generates for a catalog names it
/// (`Color(.brand)`, `UIColor(resource: .brand)`); `widgets build` generates that code too.
public struct ColorResource: Hashable, Sendable {
    public let name: String
    public init(name: String, bundle: Bundle) { self.name = name }
}

/// An image set of the bundle's asset catalog, as the code Xcode generates for a catalog names it
/// (`Image(.logo)`, `UIImage(resource: .logo)`).
public struct ImageResource: Hashable, Sendable {
    public let name: String
    public init(name: String, bundle: Bundle) { self.name = name }
}

extension UIColor {
    /// A colour set from the bundle's asset catalog, in the appearance of the view it is used in;
    /// nil when the catalog has none of that name.
    public convenience init?(named name: String) {
        guard BundleResources.shared.assets.colors[name] != nil else { return nil }
        self.init(Color(name))
    }

    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?) {
        self.init(named: name)
    }

    public convenience init(resource: ColorResource) { self.init(Color(resource.name)) }
}

/// Warnings about a bundle's resources, each said once per process, on standard error (which the
/// host relays with the bundle's name).
enum AssetWarnings {
    private static let said = NSLock()
    nonisolated(unsafe) private static var messages: Set<String> = []

    static func once(_ message: String) {
        let first = said.withLock { messages.insert(message).inserted }
        if first { FileHandle.standardError.write(Data("widgets: warning: \(message)\n".utf8)) }
    }
}
