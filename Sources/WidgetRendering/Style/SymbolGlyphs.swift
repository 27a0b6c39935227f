import WidgetWire

/// The SF Symbols the host draws, as glyphs any terminal font has; docs/RENDERING.md lists them.
public enum SymbolGlyphs {
    public static let table: [String: String] = [
        // Shapes and marks
        "star": "☆", "star.fill": "★", "heart": "♡", "heart.fill": "♥", "circle": "○", "circle.fill": "●",
        "largecircle.fill.circle": "◉", "smallcircle.filled.circle": "◉", "record.circle": "◉", "circle.circle": "◎",
        "circle.lefthalf.filled": "◐", "circle.righthalf.filled": "◑", "circle.dashed": "◌",
        "square": "□", "square.fill": "■", "triangle": "△", "triangle.fill": "▲", "diamond": "◇", "diamond.fill": "◆",
        "hexagon": "⬡", "hexagon.fill": "⬢", "seal": "✺", "shield": "⛉", "flag": "⚑", "flag.fill": "⚑",
        "checkmark": "✓", "checkmark.circle": "✓", "checkmark.circle.fill": "✔", "checkmark.square": "☑", "checklist": "☑",
        "xmark": "✗", "xmark.circle.fill": "✘", "multiply": "×", "divide": "÷", "equal": "=", "percent": "%", "number": "#",
        "plus": "+", "minus": "−", "plus.circle": "⊕", "minus.circle": "⊖", "ellipsis": "…", "questionmark": "?",
        "exclamationmark": "!", "info.circle": "ⓘ", "exclamationmark.triangle": "⚠", "exclamationmark.triangle.fill": "⚠",
        "exclamationmark.circle": "ⓘ", "sparkles": "✨", "sparkle": "✦", "crown": "♛", "trophy": "♛", "bookmark": "⚑", "tag": "⌑",
        // Weather and nature
        "sun.max": "☼", "sun.max.fill": "☀", "sun.min": "☼", "sunrise": "☀", "sunset": "☀", "sun.haze": "☼",
        "moon": "☾", "moon.fill": "☾", "moon.stars": "☾", "moon.zzz": "☾", "cloud": "☁", "cloud.fill": "☁", "cloud.sun": "⛅",
        "cloud.rain": "☂", "cloud.rain.fill": "☂", "cloud.drizzle": "☂", "cloud.heavyrain": "☔", "cloud.bolt": "⛈",
        "cloud.snow": "❄", "snowflake": "❄", "snow": "❄", "wind": "≋", "tornado": "≋", "smoke": "≋", "umbrella": "☂",
        "thermometer": "🌡", "humidity": "≈", "bolt": "ϟ", "bolt.fill": "ϟ", "flame": "♨", "flame.fill": "♨",
        "drop": "◌", "drop.fill": "●", "leaf": "❦", "tree": "♣", "pawprint": "❀", "hare": "↠", "tortoise": "↞",
        // Time
        "clock": "◷", "alarm": "◷", "timer": "◴", "stopwatch": "◴", "hourglass": "⧗", "calendar": "▦", "bell": "♪", "bell.fill": "♪",
        // Media
        "play": "▶", "play.fill": "▶", "pause": "⏸", "pause.fill": "⏸", "stop": "■", "stop.fill": "■",
        "playpause": "⏯", "forward": "⏩", "backward": "⏪", "forward.end": "⏭", "backward.end": "⏮",
        "goforward": "↻", "gobackward": "↺", "shuffle": "⤮", "repeat": "↻", "music.note": "♪", "music.note.list": "♫",
        "speaker": "◁", "speaker.wave.2": "◁)", "speaker.slash": "◁×", "mic": "⏺", "headphones": "♫", "waveform": "∿",
        "photo": "▨", "photo.fill": "▨", "camera": "◙", "video": "▶", "tv": "▭", "film": "▦", "gamecontroller": "✜",
        // Arrows
        "arrow.up": "↑", "arrow.down": "↓", "arrow.left": "←", "arrow.right": "→",
        "arrow.up.right": "↗", "arrow.down.right": "↘", "arrow.up.left": "↖", "arrow.down.left": "↙",
        "arrow.up.circle": "⇧", "arrow.down.circle": "⇩", "arrow.clockwise": "↻", "arrow.counterclockwise": "↺",
        "arrow.circlepath": "⟳", "arrow.triangle.2.circlepath": "⟳", "arrow.2.circlepath": "⟳", "arrow.uturn.left": "↶",
        "arrow.uturn.right": "↷", "arrow.up.arrow.down": "⇅", "arrow.left.arrow.right": "⇄", "arrow.up.and.down": "↕",
        "chevron.right": "›", "chevron.left": "‹", "chevron.up": "˄", "chevron.down": "˅",
        "arrowtriangle.up": "▲", "arrowtriangle.down": "▼", "arrowtriangle.left": "◀", "arrowtriangle.right": "▶",
        "chart.line.uptrend.xyaxis": "↗", "chart.line.downtrend.xyaxis": "↘", "chart.bar": "▇", "chart.pie": "◔",
        // People, places, things
        "person": "☺", "person.fill": "☻", "person.2": "☺☺", "person.crop.circle": "☺", "figure.walk": "⚲", "figure.run": "⚲",
        "house": "⌂", "house.fill": "⌂", "building.2": "▥", "map": "▦", "globe": "◍", "location": "⌖", "location.fill": "⌖",
        "mappin": "⌖", "car": "⛍", "bus": "⛍", "tram": "⛍", "airplane": "✈", "bicycle": "⚲", "bed.double": "▬",
        "cup.and.saucer": "☕", "fork.knife": "⑂", "cart": "⛟", "bag": "⛟", "creditcard": "▭", "gift": "⌧", "book": "▯",
        "newspaper": "▤", "doc": "▯", "doc.text": "▤", "folder": "▭", "tray": "▭", "archivebox": "▭", "trash": "⌫",
        "pencil": "✎", "square.and.pencil": "✎", "paintbrush": "✎", "scissors": "✂", "hammer": "⚒", "wrench": "⚒",
        "magnifyingglass": "⌕", "envelope": "✉", "paperplane": "➤", "phone": "✆", "message": "✉", "bubble.left": "✉",
        "link": "⛓", "lock": "⚿", "lock.open": "⚿", "key": "⚷", "eye": "◉", "eye.slash": "◌",
        "gearshape": "⚙", "gearshape.fill": "⚙", "gear": "⚙", "slider.horizontal.3": "☰", "line.3.horizontal": "☰",
        "list.bullet": "☰", "square.grid.2x2": "▦", "square.and.arrow.up": "⇪",
        "cpu": "▣", "memorychip": "▤", "desktopcomputer": "▭", "laptopcomputer": "▭", "iphone": "▯", "applewatch": "⌚",
        "battery.100": "▮", "battery.75": "▮", "battery.50": "▯", "battery.25": "▯", "battery.0": "▯", "bolt.batteryblock": "ϟ",
        "wifi": "≋", "antenna.radiowaves.left.and.right": "⦿", "network": "⌘", "dice": "⚄", "puzzlepiece": "✣",
        "bitcoinsign.circle": "₿", "bitcoinsign.circle.fill": "₿", "dollarsign.circle": "$", "eurosign.circle": "€",
        "sterlingsign.circle": "£", "yensign.circle": "¥",
    ]

    /// The glyph for a symbol name. A name outside the set is looked up by its family: without
    /// `.fill` (`play.circle.fill` draws as `play.circle`), then with its last parts dropped
    /// (`play.circle` as `play`, `cloud.sun.rain` as `cloud.sun`); a hollow square when nothing is
    /// left to try.
    /// The symbol names in a view that are drawn by no shape and no glyph of their family (a
    /// placeholder stands in), each once, in the order met: what an author is told.
    public static func unknown(in view: ViewNode) -> [String] {
        var names: [String] = []
        func visit(_ node: ViewNode) {
            var found: [String] = []
            if node.view == "image", let name = node["systemName"]?.stringValue { found.append(name) }
            for part in node["parts"]?.arrayValue ?? [] { if let name = part["systemName"]?.stringValue { found.append(name) } }
            for name in found where !SymbolShapes.has(name) && glyph(name) == placeholder && !names.contains(name) { names.append(name) }
            node.children.forEach(visit)
        }
        visit(view)
        return names
    }

    /// What stands in for a symbol no glyph draws.
    public static let placeholder = "□"

    public static func glyph(_ name: String) -> String {
        if let glyph = table[name] { return glyph }
        var parts = name.split(separator: ".").filter { $0 != "fill" }
        while !parts.isEmpty {
            if let glyph = table[parts.joined(separator: ".")] { return glyph }
            parts.removeLast()
        }
        return placeholder
    }
}
