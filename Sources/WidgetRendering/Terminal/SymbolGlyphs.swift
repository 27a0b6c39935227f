/// The SF Symbols the host draws, as glyphs any terminal font has; docs/RENDERING.md lists them.
public enum SymbolGlyphs {
    public static let table: [String: String] = [
        "star": "☆", "star.fill": "★", "heart": "♡", "heart.fill": "♥", "circle": "○", "circle.fill": "●",
        "square": "□", "square.fill": "■", "checkmark": "✓", "checkmark.circle.fill": "✔", "xmark": "✗", "xmark.circle.fill": "✘",
        "sun.max": "☼", "sun.max.fill": "☀", "moon": "☾", "moon.fill": "☾", "cloud": "☁", "cloud.fill": "☁",
        "cloud.rain": "☂", "cloud.rain.fill": "☂", "snowflake": "❄", "bolt": "ϟ", "bolt.fill": "ϟ", "flame": "♨", "flame.fill": "♨",
        "drop": "◌", "drop.fill": "●", "leaf": "❦", "clock": "◷", "alarm": "◷", "calendar": "▦", "bell": "♪", "bell.fill": "♪",
        "music.note": "♪", "arrow.up": "↑", "arrow.down": "↓", "arrow.left": "←", "arrow.right": "→",
        "arrow.up.right": "↗", "arrow.down.right": "↘", "chevron.right": "›", "chevron.left": "‹", "plus": "+", "minus": "−",
        "info.circle": "ⓘ", "exclamationmark.triangle": "⚠", "exclamationmark.triangle.fill": "⚠", "person": "☺", "person.fill": "☻",
        "house": "⌂", "house.fill": "⌂", "gearshape": "⚙", "gearshape.fill": "⚙", "cpu": "▣", "memorychip": "▤",
        "battery.100": "▮", "battery.50": "▯", "battery.0": "▯", "wifi": "≋", "location": "⌖", "location.fill": "⌖",
        "bitcoinsign.circle": "₿", "bitcoinsign.circle.fill": "₿", "dollarsign.circle": "$", "chart.line.uptrend.xyaxis": "↗",
    ]

    /// The glyph for a symbol name; a hollow square for names outside the set.
    public static func glyph(_ name: String) -> String { table[name] ?? "□" }
}
