import Foundation
import Synchronization

/// The font a widget's text is measured in, standing in for iOS's SF Pro: Inter (Debian's
/// `fonts-inter`), whose metrics are close to SF Pro's and which, like SF Pro, has a text cut and
/// a display cut for 20 points and up. Read from its files at run time (nothing is required to build
/// or to run without it): `$WIDGETS_FONT_DIR`, else where Debian installs it. A browser that has
/// Inter draws the same widths the layout measured; where it is missing, text is measured by
/// average glyph widths, and `missing` says which package provides it.
public enum SystemFont {
    /// What `fonts-inter` installs, the faces read.
    static let files = [
        Face.text: "Inter-Regular.otf", .textBold: "Inter-SemiBold.otf", .display: "InterDisplay-Regular.otf", .displayBold: "InterDisplay-SemiBold.otf",
    ]

    /// The faces: text below 20 points, display from 20, each regular and semibold (what SVG draws
    /// bold text in, weight 600).
    enum Face: Sendable, CaseIterable {
        case text, textBold, display, displayBold

        init(points: Double, bold: Bool) {
            switch (points >= 20, bold) {
            case (false, false): self = .text
            case (false, true): self = .textBold
            case (true, false): self = .display
            case (true, true): self = .displayBold
            }
        }
    }

    /// Where the font is looked for: `$WIDGETS_FONT_DIR` alone when set, else where Debian's
    /// `fonts-inter` and a user's own fonts are.
    static func directories(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let given = environment["WIDGETS_FONT_DIR"], !given.isEmpty { return [given] }
        var directories = ["/usr/share/fonts/opentype/inter", "/usr/local/share/fonts/inter", "/usr/share/fonts/truetype/inter"]
        if let home = environment["HOME"] { directories.append(home + "/.local/share/fonts") }
        return directories
    }

    /// The faces read, once: all four, or none (a partial install measures nothing half in one way).
    static let faces: [Face: OpenTypeFont]? = load(from: directories())

    static func load(from directories: [String]) -> [Face: OpenTypeFont]? {
        var faces: [Face: OpenTypeFont] = [:]
        for (face, name) in files {
            guard let path = directories.map({ $0 + "/" + name }).first(where: { FileManager.default.isReadableFile(atPath: $0) }),
                let data = FileManager.default.contents(atPath: path),
                let font = try? OpenTypeFont(bytes: [UInt8](data))
            else { return nil }
            faces[face] = font
        }
        return faces
    }

    /// Whether text is measured in the font (it is installed).
    public static var isAvailable: Bool { faces != nil }

    /// What to install for iOS's text metrics, when the font is missing; nil when it is there.
    public static var missing: String? {
        isAvailable ? nil : "text is measured by average glyph widths: install Debian's fonts-inter (Inter, which stands in for SF Pro) for widths as the font measures them"
    }

    /// The width of `text` at `points`, in points, as the font sets it (advances and kerning); a
    /// character the font lacks (an emoji, CJK) by `fallback`. Nil when the font is missing.
    static func width(of text: String, points: Double, bold: Bool, fallback: (Character) -> Double) -> Double? {
        guard let font = faces?[Face(points: points, bold: bold)] else { return nil }
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
