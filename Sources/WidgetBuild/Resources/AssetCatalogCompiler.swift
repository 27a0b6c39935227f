import FoundationEssentials
import Glibc
import WidgetSupport
import WidgetWire

/// Compiles asset catalogs (`*.xcassets`) into what a bundle carries (`Assets.json` and `Assets/`,
/// see `ResourceBundleLayout`), as Xcode compiles them into `Assets.car`: colour sets with their
/// light, dark and high-contrast appearances (sRGB, Display P3, the extended and grey spaces, and
/// system colours by reference; components as 0–1, 0–255 or hex), image sets with their scales and
/// appearances (PNG and JPEG), and folders that provide a namespace. App icons and other set types
/// widgets do not show are left out.
public struct AssetCatalogCompiler {
    public struct Output: Sendable {
        /// `Assets.json`'s text.
        public var json: String
        /// Pictures to copy: the bundle's path (under `Assets/`) to the source file.
        public var files: [String: String]
        public var colorNames: [String]
        public var imageNames: [String]
        public var warnings: [String]
    }

    var colors: [String: JSONObject] = [:]
    var images: [String: JSONObject] = [:]
    var files: [String: String] = [:]
    var warnings: [String] = []
    /// Colour sets with no colour in any entry, as Xcode's templates make them.
    var emptyColorSets: Set<String> = []

    public static func compile(_ catalogs: [String], accentColor: String?, widgetBackground: String?) throws(BuildError) -> Output {
        var compiler = AssetCatalogCompiler()
        for catalog in catalogs { try compiler.folder(catalog, namespace: "", depth: 0) }
        var root = JSONObject()
        if let accentColor, !accentColor.isEmpty {
            root["accentColor"] = .string(accentColor)
            if compiler.colors[accentColor] == nil, accentColor != "AccentColor", !compiler.emptyColorSets.contains(accentColor) {
                compiler.warnings.append("the accent colour \"\(accentColor)\" (ASSETCATALOG_COMPILER_GLOBAL_ACCENT_COLOR_NAME) is not a colour set of the asset catalogs")
            }
        }
        if let widgetBackground, !widgetBackground.isEmpty {
            root["widgetBackground"] = .string(widgetBackground)
            if compiler.colors[widgetBackground] == nil, !compiler.emptyColorSets.contains(widgetBackground) {
                compiler.warnings.append(
                    "the widget background \"\(widgetBackground)\" (ASSETCATALOG_COMPILER_WIDGET_BACKGROUND_COLOR_NAME) is not a colour set of the asset catalogs")
            }
        }
        root["colors"] = .object(JSONObject(compiler.colors.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.object($0.value)) }))
        root["images"] = .object(JSONObject(compiler.images.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.object($0.value)) }))
        return Output(
            json: JSONValue.object(root).jsonText, files: compiler.files, colorNames: compiler.colors.keys.sorted(), imageNames: compiler.images.keys.sorted(),
            warnings: compiler.warnings)
    }

    private mutating func folder(_ path: String, namespace: String, depth: Int) throws(BuildError) {
        guard depth < 16 else { throw BuildError("\(path): folders nested more than 16 deep") }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path).sorted() else {
            throw BuildError("\(path): cannot list the asset catalog")
        }
        for name in names where !name.hasPrefix(".") {
            let child = path + "/" + name
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: child, isDirectory: &isDirectory), isDirectory else { continue }
            let base = name.pathWithoutExtension
            switch name.pathNameExtension {
            case "colorset": try colorSet(child, name: namespace + base)
            case "imageset": try imageSet(child, name: namespace + base)
            case "appiconset", "iconset", "brandassets", "launchimage", "stickerpack", "solidimagestack", "imagestack": continue
            case "symbolset", "dataset", "arimageset", "complicationset", "spriteatlas", "textureset", "cubetextureset", "mipmapset":
                warnings.append("\(child): a \(name.pathNameExtension) is not drawn here; left out")
            case "":
                // A folder: a group, which gives its children a namespace when it says so.
                let contents = try? Self.contents(child + "/Contents.json")
                let provides = contents?["properties"]?["provides-namespace"]?.boolValue ?? false
                try folder(child, namespace: provides ? namespace + name + "/" : namespace, depth: depth + 1)
            default: continue
            }
        }
    }

    static func contents(_ path: String) throws(BuildError) -> JSONValue {
        guard let data = FileManager.default.contents(atPath: path) else { throw BuildError("\(path): missing (every set has a Contents.json)") }
        do {
            return try JSONValue.parse([UInt8](data))
        } catch {
            throw BuildError("\(path): not valid JSON: \(error)")
        }
    }

    /// "dark", "highContrast", "darkHighContrast" or "any", from an entry's `appearances`; nil for
    /// one that is for another appearance (light explicitly is "any" too).
    static func appearance(_ entry: JSONValue) -> String? {
        var dark = false
        var high = false
        for appearance in entry["appearances"]?.arrayValue ?? [] {
            switch (appearance["appearance"]?.stringValue, appearance["value"]?.stringValue) {
            case ("luminosity", "dark"): dark = true
            case ("luminosity", _): break
            case ("contrast", "high"): high = true
            default: return nil
            }
        }
        return dark ? (high ? "darkHighContrast" : "dark") : (high ? "highContrast" : "any")
    }

    /// Whether an entry is for a device a widget on a phone shows: universal or iPhone.
    static func isForPhone(_ entry: JSONValue) -> Bool {
        let idiom = entry["idiom"]?.stringValue ?? "universal"
        return idiom == "universal" || idiom == "iphone"
    }

    private mutating func colorSet(_ path: String, name: String) throws(BuildError) {
        let contents = try Self.contents(path + "/Contents.json")
        var variants = JSONObject()
        // Universal first, so that an iPhone entry replaces it.
        let entries = (contents["colors"]?.arrayValue ?? []).filter(Self.isForPhone).sorted { a, _ in a["idiom"]?.stringValue != "iphone" }
        for entry in entries {
            guard let appearance = Self.appearance(entry), let color = entry["color"] else { continue }
            do {
                let rgba = try Self.rgba(color)
                variants[appearance] = .array(rgba.map { .number(($0 * 10000).rounded() / 10000) })
            } catch {
                throw BuildError("\(path)/Contents.json: the colour of \"\(name)\": \(error.description)")
            }
        }
        guard !variants.members.isEmpty else {
            // Xcode's templates make AccentColor and WidgetBackground with no colour at all (the system's
            // is meant): nothing to say of those.
            if (contents["colors"]?.arrayValue ?? []).contains(where: { $0["color"] != nil }) {
                warnings.append("\(path): the colour set \"\(name)\" has no colour for iPhone; left out")
            } else {
                emptyColorSets.insert(name)
            }
            return
        }
        colors[name] = variants
    }

    /// A colour entry as sRGB components from 0 to 1.
    static func rgba(_ color: JSONValue) throws(BuildError) -> [Double] {
        if let reference = color["reference"]?.stringValue {
            guard let rgb = systemColors[reference] else { throw BuildError("the system colour \"\(reference)\" is not one this SDK knows") }
            return rgb
        }
        guard let components = color["components"] else { throw BuildError("it has neither components nor a reference") }
        func component(_ name: String) throws(BuildError) -> Double {
            guard let value = components[name] else { throw BuildError("it lacks the \(name) component") }
            return try Self.component(value, name: name)
        }
        let alpha = components["alpha"] == nil ? 1 : try component("alpha")
        let space = color["color-space"]?.stringValue ?? "srgb"
        if space.contains("gray") {
            let white = min(1, max(0, try component("white")))
            return [white, white, white, min(1, max(0, alpha))]
        }
        var rgb = [try component("red"), try component("green"), try component("blue")]
        switch space {
        case "display-p3", "extended-display-p3": rgb = Self.displayP3ToSRGB(rgb)
        case "extended-linear-srgb", "linear-srgb": rgb = rgb.map(Self.encodeSRGB)
        case "srgb", "extended-srgb": break
        default: throw BuildError("the colour space \"\(space)\" is not one Xcode writes")
        }
        return rgb.map { min(1, max(0, $0)) } + [min(1, max(0, alpha))]
    }

    /// A component as Xcode writes it: "0.898" (0 to 1), "229" (0 to 255), or "0xE5".
    static func component(_ value: JSONValue, name: String) throws(BuildError) -> Double {
        if let number = value.numberValue { return number > 1 ? number / 255 : number }
        guard let text = value.stringValue?.trimmingSpaces, !text.isEmpty else {
            throw BuildError("its \(name) component is not a number")
        }
        if text.lowercased().hasPrefix("0x"), let hex = Int(text.dropFirst(2), radix: 16) { return Double(hex) / 255 }
        if text.contains("."), let value = Double(text) { return value }
        if let value = Int(text) { return Double(value) / 255 }
        throw BuildError("its \(name) component \"\(text)\" is not a number")
    }

    static func decodeSRGB(_ value: Double) -> Double {
        let magnitude = abs(value)
        let linear = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
        return value < 0 ? -linear : linear
    }

    static func encodeSRGB(_ value: Double) -> Double {
        let magnitude = abs(value)
        let encoded = magnitude <= 0.0031308 ? magnitude * 12.92 : 1.055 * pow(magnitude, 1 / 2.4) - 0.055
        return value < 0 ? -encoded : encoded
    }

    /// Display P3 (sRGB's transfer curve, wider primaries) as sRGB.
    static func displayP3ToSRGB(_ rgb: [Double]) -> [Double] {
        let linear = rgb.map(decodeSRGB)
        let matrix: [[Double]] = [[1.2249, -0.2247, 0], [-0.0420, 1.0419, 0], [-0.0197, -0.0786, 1.0979]]
        return matrix.map { row in encodeSRGB(row[0] * linear[0] + row[1] * linear[1] + row[2] * linear[2]) }
    }

    /// The system colours a colour set may reference, as sRGB in their light appearance.
    static let systemColors: [String: [Double]] = [
        "systemRedColor": [1, 59 / 255, 48 / 255, 1], "systemOrangeColor": [1, 149 / 255, 0, 1], "systemYellowColor": [1, 204 / 255, 0, 1],
        "systemGreenColor": [52 / 255, 199 / 255, 89 / 255, 1], "systemMintColor": [0, 199 / 255, 190 / 255, 1],
        "systemTealColor": [48 / 255, 176 / 255, 199 / 255, 1], "systemCyanColor": [50 / 255, 173 / 255, 230 / 255, 1],
        "systemBlueColor": [0, 122 / 255, 1, 1], "systemIndigoColor": [88 / 255, 86 / 255, 214 / 255, 1],
        "systemPurpleColor": [175 / 255, 82 / 255, 222 / 255, 1], "systemPinkColor": [1, 45 / 255, 85 / 255, 1],
        "systemBrownColor": [162 / 255, 132 / 255, 94 / 255, 1], "systemGrayColor": [142 / 255, 142 / 255, 147 / 255, 1],
        "labelColor": [0, 0, 0, 1], "secondaryLabelColor": [60 / 255, 60 / 255, 67 / 255, 0.6], "whiteColor": [1, 1, 1, 1],
        "blackColor": [0, 0, 0, 1], "systemBackgroundColor": [1, 1, 1, 1], "clearColor": [0, 0, 0, 0],
    ]

    private mutating func imageSet(_ path: String, name: String) throws(BuildError) {
        let contents = try Self.contents(path + "/Contents.json")
        var variants: [String: [JSONValue]] = [:]
        for entry in contents["images"]?.arrayValue ?? [] where Self.isForPhone(entry) {
            guard let file = entry["filename"]?.stringValue, let appearance = Self.appearance(entry) else { continue }
            let source = path + "/" + file
            guard FileManager.default.fileExists(atPath: source) else {
                throw BuildError("\(path)/Contents.json: the image set \"\(name)\" names \(file), which is not there")
            }
            let lowered = file.lowercased()
            guard lowered.hasSuffix(".png") || lowered.hasSuffix(".jpg") || lowered.hasSuffix(".jpeg") else {
                warnings.append("\(source): only PNG and JPEG pictures are drawn here; \"\(name)\" has none other")
                continue
            }
            let scale = entry["scale"]?.stringValue.flatMap { Double($0.replacing("x", with: "")) } ?? 1
            let destination = "\(ResourceBundleLayout.assetDirectory)/\(Self.safe(name))/\(appearance)-\(Int(scale))x-\(Self.safe(file))"
            files[destination] = source
            variants[appearance, default: []].append(
                .object(JSONObject([("file", .string(destination)), ("scale", .number(scale))])))
        }
        guard !variants.isEmpty else {
            warnings.append("\(path): the image set \"\(name)\" has no PNG or JPEG picture for iPhone; left out")
            return
        }
        var set = JSONObject([("template", .bool(contents["properties"]?["template-rendering-intent"]?.stringValue == "template"))])
        for (appearance, list) in variants.sorted(by: { $0.key < $1.key }) { set[appearance] = .array(list) }
        images[name] = set
    }

    /// A name as a file name: letters, digits, `-`, `_` and `.`.
    static func safe(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
    }
}
