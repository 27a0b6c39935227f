public import Foundation
public import WidgetWire

/// An image: an SF Symbol by name (the host draws the documented set, docs/RENDERING.md, as a glyph
/// in the terminal and in SVG), a PNG or JPEG (`UIImage`, drawn in SVG, a block in the terminal), or
/// an image set of the bundle's asset catalog by name.
public struct Image: _PrimitiveView, Equatable {
    var attributes: JSONObject
    /// Tinted with the accented content when the widget is drawn accented (`.accented`).
    var accentable = false

    public init(systemName: String) { attributes = JSONObject([("systemName", .string(systemName))]) }

    /// An SF Symbol with a variable value (drawn as the symbol).
    public init(systemName: String, variableValue: Double?) { self.init(systemName: systemName) }

    /// An image set from the bundle's asset catalog (`widgets build` compiles it): its picture for the
    /// appearance and display scale of the view it is in. A name the catalog lacks is drawn as a
    /// placeholder, with a warning naming it.
    public init(_ name: String, bundle: Bundle? = nil) {
        attributes = JSONObject([("name", .string(name))])
        guard let (data, scale, template) = BundleResources.shared.assets.image(named: name, in: EnvironmentValues.current),
            let image = UIImage(data: data, name: name)
        else {
            AssetWarnings.once("no image set named \"\(name)\" in the bundle's asset catalog; it is drawn as a placeholder")
            return
        }
        attributes = image.attributes(scale: scale)
        if template { attributes["template"] = .bool(true) }
    }

    /// An image set named in code Xcode generates for an asset catalog (`Image(.logo)`).
    public init(_ resource: ImageResource) { self.init(resource.name) }

    public init(decorative name: String, bundle: Bundle? = nil) { self.init(name, bundle: bundle) }

    /// A `UIImage`'s picture (or symbol).
    public init(uiImage: UIImage) { attributes = uiImage.attributes(scale: uiImage.scale) }

    public func _resolve(in environment: EnvironmentValues) -> [ViewNode] {
        var node = ViewNode("image", attributes: attributes)
        // Marked as `widgetAccentable()` marks a view.
        if accentable { node.modifiers.append(ViewModifierNode("widgetAccentable", .bool(true))) }
        return [node]
    }

    /// How the image is drawn when the widget is drawn accented (iOS 18): `.accented` and
    /// `.accentedDesaturated` tint it with the accented content; otherwise, and for `.fullColor`,
    /// which the host cannot draw in that mode, it is drawn as the rest.
    public func widgetAccentedRenderingMode(_ renderingMode: WidgetAccentedRenderingMode?) -> Image {
        var image = self
        image.accentable = renderingMode == .accented || renderingMode == .accentedDesaturated
        return image
    }

    /// The image as a part of a text.
    var textSegment: Text.Segment {
        guard let name = attributes["systemName"]?.stringValue else { return .literal("") }
        return .formatted(JSONObject([("systemName", .string(name))]), fallback: "")
    }

    func with(_ key: String, _ value: JSONValue) -> Image {
        var image = self
        image.attributes[key] = value
        return image
    }

    /// The image stretches to the space it is offered (with `.scaledToFit()`, keeping its ratio).
    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: ResizingMode = .stretch) -> Image { with("resizable", .bool(true)) }

    /// Draws the image in the foreground colour (`.template`) or its own colours.
    public func renderingMode(_ renderingMode: TemplateRenderingMode?) -> Image { self }
    public func interpolation(_ interpolation: Interpolation) -> Image { self }
    public func antialiased(_ isAntialiased: Bool) -> Image { self }
    public func symbolRenderingMode(_ mode: SymbolRenderingMode?) -> Image { with("symbolRenderingMode", mode.map { .string($0.name) } ?? .null) }

    public enum ResizingMode: Hashable, Sendable { case tile, stretch }
    public enum TemplateRenderingMode: Hashable, Sendable { case template, original }
    public enum Interpolation: Hashable, Sendable { case none, low, medium, high }
    public enum Scale: Hashable, Sendable { case small, medium, large }
    public enum Orientation: UInt8, Hashable, Sendable { case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored }
}

/// How an image is drawn in a widget drawn accented (`Image.widgetAccentedRenderingMode(_:)`).
public struct WidgetAccentedRenderingMode: Hashable, Sendable {
    let name: String
    public static let accented = WidgetAccentedRenderingMode(name: "accented")
    public static let accentedDesaturated = WidgetAccentedRenderingMode(name: "accentedDesaturated")
    public static let desaturated = WidgetAccentedRenderingMode(name: "desaturated")
    public static let fullColor = WidgetAccentedRenderingMode(name: "fullColor")
}

/// A minimal `UIImage`: a PNG or JPEG loaded from a file or data, which `Image(uiImage:)` draws (in
/// SVG, as the picture; in the terminal, as a block), or an SF Symbol by name. Images of more than
/// 256 KiB are drawn as a placeholder, so a timeline stays small.
public final class UIImage: Sendable {
    /// The file's name, or "data", or the symbol's name.
    let name: String
    let data: Data?
    /// The SF Symbol this image is, if it is one.
    let systemName: String?
    /// Its size in pixels, read from the PNG or JPEG header; zero when unknown.
    let pixels: CGSize
    /// Its size in points.
    public var size: CGSize { CGSize(width: pixels.width / max(scale, 1), height: pixels.height / max(scale, 1)) }

    static let largestEmbedded = 256 << 10

    /// The image in a file (the app group container, a cache).
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data, name: (path as NSString).lastPathComponent)
    }

    /// An image set from the bundle's asset catalog, at the display's scale; nil when it has none
    /// of that name.
    public convenience init?(named name: String) {
        guard let (data, scale, _) = BundleResources.shared.assets.image(named: name, in: EnvironmentValues.current),
            let size = Self.pixelSize(data)
        else { return nil }
        self.init(name: name, data: data, size: size, scale: scale)
    }

    /// An image set named in code Xcode generates for an asset catalog; a placeholder when the
    /// catalog has none of that name.
    public convenience init(resource: ImageResource) {
        if let (data, scale, _) = BundleResources.shared.assets.image(named: resource.name, in: EnvironmentValues.current),
            let size = Self.pixelSize(data)
        {
            self.init(name: resource.name, data: data, size: size, scale: scale)
        } else {
            AssetWarnings.once("no image set named \"\(resource.name)\" in the bundle's asset catalog; it is drawn as a placeholder")
            self.init(name: resource.name, data: nil)
        }
    }

    /// The image as a view node's attributes: the symbol, or the picture and its size in points.
    func attributes(scale: Double) -> JSONObject {
        if let systemName { return JSONObject([("systemName", .string(systemName))]) }
        var attributes = JSONObject([("name", .string(name))])
        if let data = encoded {
            let scale = scale > 0 ? scale : 1
            attributes["data"] = .string(data)
            attributes["width"] = .number(Double(pixels.width) / scale)
            attributes["height"] = .number(Double(pixels.height) / scale)
        }
        return attributes
    }

    /// An image from PNG or JPEG data; nil for anything else.
    public convenience init?(data: Data) { self.init(data: data, name: "data") }

    /// Pixels per point: 2 for an asset's @2x picture, 1 for a file's.
    public let scale: CGFloat

    private init(name: String, data: Data?, size: CGSize = CGSize(width: 0, height: 0), scale: Double = 1, systemName: String? = nil) {
        self.name = name
        self.data = data
        self.pixels = size
        self.scale = CGFloat(scale)
        self.systemName = systemName
    }

    convenience init?(data: Data, name: String) {
        guard let size = Self.pixelSize(data) else { return nil }
        self.init(name: name, data: data, size: size)
    }

    /// An empty image, drawn as a placeholder.
    public convenience init() { self.init(name: "empty", data: nil) }

    /// An SF Symbol, drawn as `Image(systemName:)` draws it; nil for an empty name.
    public convenience init?(systemName name: String) {
        guard !name.isEmpty else { return nil }
        self.init(name: name, data: nil, systemName: name)
    }

    public func pngData() -> Data? { data }
    public func jpegData(compressionQuality: CGFloat) -> Data? { data }

    /// The picture as a `data:` URL, when it is small enough to travel in a timeline.
    var encoded: String? {
        guard let data, data.count <= Self.largestEmbedded else { return nil }
        let type = data.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "image/png" : "image/jpeg"
        return "data:\(type);base64," + data.base64EncodedString()
    }

    /// The width and height a PNG's IHDR or a JPEG's SOF frame gives.
    static func pixelSize(_ data: Data) -> CGSize? {
        let bytes = [UInt8](data.prefix(64 << 10))
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return CGSize(width: u32(16), height: u32(20))
        }
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 9 < bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            let length = u16(offset + 2)
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                return CGSize(width: u16(offset + 7), height: u16(offset + 5))
            }
            offset += 2 + length
        }
        return CGSize(width: 0, height: 0)
    }
}
