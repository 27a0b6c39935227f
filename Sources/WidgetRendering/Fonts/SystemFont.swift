import FoundationEssentials
import Synchronization
import WidgetSupport

/// The font a widget's text is measured in, standing in for iOS's SF Pro: Inter (Debian's
/// `fonts-inter`), whose metrics are close to SF Pro's and which, like SF Pro, has nine weights
/// and a text cut and a display cut for 20 points and up. Read from its files at run time (nothing
/// needs it to build or to run): `$WIDGETS_FONT_DIR`, else where Debian installs it. A browser
/// that has Inter draws the same widths the layout measured; where it is missing, text is measured
/// by average glyph widths, and `missing` says which package provides it.
public enum SystemFont {
    /// Inter's weights by CSS number, as `fonts-inter` names its files.
    static let weightNames = [
        100: "Thin", 200: "ExtraLight", 300: "Light", 400: "Regular", 500: "Medium", 600: "SemiBold", 700: "Bold", 800: "ExtraBold",
        900: "Black",
    ]

    /// A face: a weight in the text cut (below 20 points) or the display cut (from 20), as SF Pro
    /// switches from SF Pro Text to SF Pro Display.
    struct Face: Hashable, Sendable {
        let weight: Int
        let display: Bool

        init(points: Double, weight: Int) {
            // The nearest of Inter's nine weights.
            self.weight = min(900, max(100, ((weight + 50) / 100) * 100))
            display = points >= 20
        }

        var fileName: String { (display ? "InterDisplay-" : "Inter-") + SystemFont.weightNames[weight]! + ".otf" }
    }

    /// Where the font is looked for: `$WIDGETS_FONT_DIR` alone when set, else where Debian's
    /// `fonts-inter` and a user's own fonts are.
    static func directories(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let given = environment["WIDGETS_FONT_DIR"], !given.isEmpty { return [given] }
        var directories = ["/usr/share/fonts/opentype/inter", "/usr/local/share/fonts/inter", "/usr/share/fonts/truetype/inter"]
        if let home = environment["HOME"] { directories.append(home + "/.local/share/fonts") }
        return directories
    }

    /// The directory the font is read from, found once: the first holding Inter's regular face.
    static let directory: String? = directories().first { FileManager.default.isReadableFile(atPath: $0 + "/Inter-Regular.otf") }

    /// Faces read so far, by file (nil: missing or broken), each read once, when first needed.
    private static let faces = Mutex<[String: OpenTypeFont?]>([:])
    /// The face chosen for each of the 18 (nine weights in two cuts), once found: what measuring
    /// asks for every text, looked up without hashing.
    private static let chosen = Mutex<[OpenTypeFont??]>(Array(repeating: nil, count: 18))

    /// The face for a size and weight: the nearest weight in the cut for the size, else the regular
    /// face of that cut, else the text cut's regular one.
    static func face(points: Double, weight: Int) -> OpenTypeFont? {
        guard let directory else { return nil }
        let wanted = Face(points: points, weight: weight)
        let slot = (wanted.weight / 100 - 1) * 2 + (wanted.display ? 1 : 0)
        if let known = chosen.withLock({ $0[slot] }) { return known }
        var found: OpenTypeFont?
        for face in [wanted, Face(points: points, weight: 400), Face(points: 0, weight: 400)] {
            if let font = load(face, from: directory) {
                found = font
                break
            }
        }
        chosen.withLock { $0[slot] = .some(found) }
        return found
    }

    static func load(_ face: Face, from directory: String) -> OpenTypeFont? {
        loadFile(directory + "/" + face.fileName)
    }

    /// A font file read (once) as `load` reads a face: Inter's italics, which the painter draws.
    static func loadFile(_ path: String) -> OpenTypeFont? {
        if let known = faces.withLock({ $0[path] }) { return known }
        var font: OpenTypeFont?
        if let data = FileManager.default.contents(atPath: path) {
            do {
                font = try OpenTypeFont(bytes: [UInt8](data))
            } catch {
                // Installed but unreadable: said once, by name, rather than taken for missing.
                HostLog.warning("cannot read the font \(path): \(error); text in that face is measured by another, or by averages")
            }
        }
        faces.withLock { $0[path] = .some(font) }
        return font
    }

    /// Every file name of Inter's faces, in both cuts: what a page may load.
    public static let fileNames: Set<String> = Set(
        weightNames.values.flatMap { weight in ["Inter-\(weight).otf", "InterDisplay-\(weight).otf"] })

    /// A face's file, as it is on disk (for a page to draw with); nil when it is not installed.
    public static func contents(of fileName: String) -> [UInt8]? {
        guard fileNames.contains(fileName), let directory else { return nil }
        return FileManager.default.contents(atPath: directory + "/" + fileName).map { [UInt8]($0) }
    }

    /// Whether text is measured in the font (it is installed).
    public static var isAvailable: Bool { face(points: 17, weight: 400) != nil }

    /// What to install for iOS's text metrics, when the font is missing; nil when it is there.
    public static var missing: String? {
        isAvailable ? nil : "text is measured by average glyph widths: install Debian's fonts-inter (Inter, which stands in for SF Pro) for widths as the font measures them"
    }

    /// The width of `text` at `points`, in points, as the font sets it (advances and kerning); a
    /// character the font lacks (an emoji, CJK) by `fallback`. Nil when the font is missing.
    static func width(of text: String, points: Double, weight: Int, fallback: (Character) -> Double) -> Double? {
        guard let font = face(points: points, weight: weight) else { return nil }
        var units = 0
        var other = 0.0
        var previous: UInt16?
        for character in text {
            let scalars = character.unicodeScalars
            var glyphs: [UInt16] = []
            for scalar in scalars {
                guard let glyph = font.glyph(for: scalar) else {
                    glyphs = []
                    break
                }
                glyphs.append(glyph)
            }
            guard !glyphs.isEmpty else {
                other += fallback(character)
                previous = nil
                continue
            }
            for glyph in glyphs {
                if let previous { units += font.kerning(previous, glyph) }
                units += font.advance(glyph)
                previous = glyph
            }
        }
        return Double(units) * points / Double(font.unitsPerEm) + other
    }
}
