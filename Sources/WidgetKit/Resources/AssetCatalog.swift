import Foundation
import WidgetWire

/// A bundle's asset catalogs as `widgets build` compiles them (`Assets.json` and the pictures in
/// `Assets/`): colour sets with their appearances, image sets with their scales, and the names
/// Xcode's settings give the accent colour and the widget background.
///
///     {"accentColor": "AccentColor", "widgetBackground": "WidgetBackground",
///      "colors": {"Brand": {"any": [r, g, b, a], "dark": [...], "highContrast": [...], "darkHighContrast": [...]}},
///      "images": {"Logo": {"template": false, "any": [{"file": "Assets/Logo@2x.png", "scale": 2}], "dark": [...]}}}
///
/// Components are sRGB from 0 to 1 (the build converts Display P3 and the other spaces Xcode writes).
struct AssetCatalog: Sendable {
    struct ColorSet: Sendable {
        /// By appearance: "any", "dark", "highContrast", "darkHighContrast".
        var variants: [String: [Double]] = [:]

        /// The components for an appearance, falling back as iOS does: high contrast to its
        /// appearance, dark to any.
        func components(dark: Bool, highContrast: Bool) -> [Double]? {
            let order = dark ? (highContrast ? ["darkHighContrast", "dark", "highContrast", "any"] : ["dark", "any"]) : (highContrast ? ["highContrast", "any"] : ["any"])
            for name in order { if let value = variants[name] { return value } }
            return variants.values.first
        }
    }

    struct ImageFile: Sendable {
        var file: String
        var scale: Double
    }

    struct ImageSet: Sendable {
        var template = false
        /// By appearance: "any", "dark".
        var variants: [String: [ImageFile]] = [:]

        func files(dark: Bool) -> [ImageFile] {
            (dark ? variants["dark"] : nil) ?? variants["any"] ?? variants.values.first ?? []
        }
    }

    var colors: [String: ColorSet] = [:]
    var images: [String: ImageSet] = [:]
    var accentColorName: String?
    var widgetBackgroundName: String?
    /// The bundle's directory, which image files are relative to.
    var directory: URL?

    init() {}

    /// Reads `Assets.json` in a bundle's directory; an empty catalog when it has none or it cannot be read.
    init(directory: URL) {
        self.directory = directory
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(ResourceBundleLayout.assets)),
            let root = try? JSONValue.parse([UInt8](data))
        else { return }
        accentColorName = root["accentColor"]?.stringValue
        widgetBackgroundName = root["widgetBackground"]?.stringValue
        for (name, value) in root["colors"]?.objectValue?.members ?? [] {
            var set = ColorSet()
            for (appearance, components) in value.objectValue?.members ?? [] {
                let numbers = components.arrayValue?.compactMap(\.numberValue) ?? []
                if numbers.count == 4 { set.variants[appearance] = numbers }
            }
            colors[name] = set
        }
        for (name, value) in root["images"]?.objectValue?.members ?? [] {
            var set = ImageSet()
            set.template = value["template"]?.boolValue ?? false
            for (appearance, files) in value.objectValue?.members ?? [] where appearance != "template" {
                set.variants[appearance] = (files.arrayValue ?? []).compactMap { file in
                    guard let path = file["file"]?.stringValue, let scale = file["scale"]?.numberValue else { return nil }
                    return ImageFile(file: path, scale: scale)
                }
            }
            images[name] = set
        }
    }

    /// The colour named `name`, as the environment's appearance shows it; nil when the catalog has none.
    func color(named name: String, in environment: EnvironmentValues) -> Color? {
        guard let set = colors[name],
            let components = set.components(dark: environment.colorScheme == .dark, highContrast: environment.colorSchemeContrast == .increased)
        else { return nil }
        return Color(red: components[0], green: components[1], blue: components[2], opacity: components[3])
    }

    /// The picture of the image set `name` for the environment's appearance and scale: the file of the
    /// display's scale, else the nearest larger, else the largest smaller; one small enough to travel
    /// in a timeline is preferred to a larger one.
    func image(named name: String, in environment: EnvironmentValues) -> (data: Data, scale: Double, template: Bool)? {
        guard let set = images[name], let directory else { return nil }
        let files = set.files(dark: environment.colorScheme == .dark)
        let wanted = Double(environment.displayScale)
        let ranked = files.sorted { a, b in
            let aAbove = a.scale >= wanted, bAbove = b.scale >= wanted
            if aAbove != bAbove { return aAbove }
            return aAbove ? a.scale < b.scale : a.scale > b.scale
        }
        var fallback: (Data, Double)?
        for file in ranked {
            guard let data = try? Data(contentsOf: directory.appendingPathComponent(file.file)) else { continue }
            if data.count <= UIImage.largestEmbedded { return (data, file.scale, set.template) }
            if fallback == nil { fallback = (data, file.scale) }
        }
        return fallback.map { ($0.0, $0.1, set.template) }
    }
}
