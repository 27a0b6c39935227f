import FoundationEssentials

/// A cell's colour as a plain value: one of the colours `SystemColors` names, RGB, or none.
struct CellColor: Hashable, Sendable {
    /// 0: none; with the top bit: 0xRRGGBB; else 1 + the colour's place in `SystemColors.names`.
    let raw: UInt32

    static let none = CellColor(raw: 0)
    static let rgbFlag: UInt32 = 0x8000_0000

    init(raw: UInt32) { self.raw = raw }

    /// A colour by its name or `#rrggbb`; a name the host does not know is the primary colour, as
    /// `SystemColors.rgb` draws it.
    init(_ name: String?) {
        guard let name else {
            self = .none
            return
        }
        if name.utf8.first == UInt8(ascii: "#"), name.utf8.count == 7, let value = UInt32(name.dropFirst(), radix: 16) {
            raw = Self.rgbFlag | value
        } else if name.utf8.contains(UInt8(ascii: "/")) || name.hasPrefix("mix:") {
            // Translucent, or mixed: as it shows over the widget's background (a canvas blends a
            // translucent one over what is under it instead, where it knows).
            let (red, green, blue) = SystemColors.rgb(name, .light)
            raw = Self.rgbFlag | UInt32(red & 0xFF) << 16 | UInt32(green & 0xFF) << 8 | UInt32(blue & 0xFF)
        } else {
            raw = 1 + UInt32(SystemColors.index[name] ?? SystemColors.index["primary"]!)
        }
    }

    init(rgb: (Int, Int, Int)) {
        raw = Self.rgbFlag | UInt32(rgb.0 & 0xFF) << 16 | UInt32(rgb.1 & 0xFF) << 8 | UInt32(rgb.2 & 0xFF)
    }

    var name: String? {
        if raw == 0 { return nil }
        if raw & Self.rgbFlag != 0 { return SystemColors.hex(rgb(.light)) }
        return SystemColors.names[Int(raw - 1)]
    }

    func rgb(_ appearance: Appearance) -> (Int, Int, Int) {
        if raw & Self.rgbFlag != 0 { return (Int(raw >> 16 & 0xFF), Int(raw >> 8 & 0xFF), Int(raw & 0xFF)) }
        let index = Int(raw == 0 ? 0 : raw - 1)
        return appearance == .light ? SystemColors.lightByIndex[index] : SystemColors.darkByIndex[index]
    }
}
