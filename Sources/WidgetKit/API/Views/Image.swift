public import Foundation
public import WidgetWire

/// An image: an SF Symbol by name (the host draws the documented set, docs/RENDERING.md, as a glyph
/// in the terminal and in SVG), a PNG or JPEG (`UIImage`, drawn in SVG, a block in the terminal), or
/// an asset by name (Linux has no asset catalogs: drawn as a placeholder, docs/PORTING.md).
public struct Image: _PrimitiveView, Equatable {
    var attributes: JSONObject
    /// Tinted with the accented content when the widget is drawn accented (`.accented`).
    var accentable = false

    public init(systemName: String) { attributes = JSONObject([("systemName", .string(systemName))]) }

    /// An SF Symbol with a variable value (drawn as the symbol).
    public init(systemName: String, variableValue: Double?) { self.init(systemName: systemName) }

    /// An image from the app's asset catalog; drawn as a placeholder here.
    public init(_ name: String, bundle: Bundle? = nil) { attributes = JSONObject([("name", .string(name))]) }

    public init(decorative name: String, bundle: Bundle? = nil) { self.init(name, bundle: bundle) }

    /// A `UIImage`'s picture (or symbol).
    public init(uiImage: UIImage) {
        if let systemName = uiImage.systemName {
            attributes = JSONObject([("systemName", .string(systemName))])
            return
        }
        attributes = JSONObject([("name", .string(uiImage.name))])
        if let data = uiImage.encoded {
            attributes["data"] = .string(data)
            attributes["width"] = .number(Double(uiImage.size.width))
            attributes["height"] = .number(Double(uiImage.size.height))
        }
    }

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
    public func symbolRenderingMode(_ mode: SymbolRenderingMode?) -> Image { self }

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
    public let size: CGSize

    static let largestEmbedded = 256 << 10

    /// The image in a file (the app group container, a cache).
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data, name: (path as NSString).lastPathComponent)
    }

    /// An image from the app's assets: looked up as a file of that name (with `.png` or `.jpg`) in the
    /// working directory; nil when there is none.
    public convenience init?(named name: String) {
        for candidate in [name, name + ".png", name + ".jpg", name + ".jpeg"] where FileManager.default.fileExists(atPath: candidate) {
            self.init(contentsOfFile: candidate)
            return
        }
        return nil
    }

    /// An image from PNG or JPEG data; nil for anything else.
    public convenience init?(data: Data) { self.init(data: data, name: "data") }

    private init(name: String, data: Data?, size: CGSize = CGSize(width: 0, height: 0), systemName: String? = nil) {
        self.name = name
        self.data = data
        self.size = size
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
