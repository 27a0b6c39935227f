import FoundationEssentials
import Glibc
import Synchronization

/// How much of its 100-unit square a symbol's drawing covers: a symbol's frame is its glyph's, as an
/// SF Symbol's is (`photo` wider than tall, `plus` a little square), not a square for every name.
extension SymbolShapes {
    /// The drawing's bounds in its 100-unit square: its outline's points and curves' control points
    /// (a close bound), arcs by their sweep, a stroked line's half width around them. Nil for a name
    /// without a shape here. The drawings use absolute commands only (SymbolShapeTests holds them to
    /// it); anything else ends the reading there.
    static func bounds(_ name: String) -> (x: Double, y: Double, width: Double, height: Double)? {
        // Asked for every symbol a layout measures: the name's bounds once found, before its parts are read again.
        if let known = cachedBounds.withLock({ $0[name] }) { return known }
        guard let (base, variant) = resolve(name) else { return nil }
        var box = Box()
        if let enclosure = variant.enclosure.flatMap({ enclosures[$0] }) {
            box.add(path: enclosure, pad: variant.fill ? 0 : 3.5)
        } else if let shape = shapes[base] {
            // A stroked line is drawn 8 units wide (a filled variant's outline too, as the plain one).
            box.add(path: shape.path, pad: shape.strokedOnly || !variant.fill ? 4 : 0)
            if let solid = shape.solid { box.add(path: solid, pad: 0) }
            if variant.slash { box.add(path: "M10 10 L90 90", pad: 4.5) }
        }
        let found = box.isEmpty ? (x: 0.0, y: 0.0, width: 100.0, height: 100.0)
            : (x: max(0, box.minX), y: max(0, box.minY), width: min(100, box.maxX) - max(0, box.minX), height: min(100, box.maxY) - max(0, box.minY))
        cachedBounds.withLock { $0[name] = found }
        return found
    }

    private static let cachedBounds = Mutex<[String: (x: Double, y: Double, width: Double, height: Double)]>([:])

    /// A symbol's frame at a font size, in points: 1.2 times the size high (an SF Symbol's frame,
    /// a little taller than its ink: 21 points for arrow.circlepath in a 17-point font), as wide as
    /// its drawing's proportions make it (`photo` wider than tall), whole points up.
    static func frame(_ name: String, points: Double) -> (width: Double, height: Double)? {
        guard let box = bounds(name) else { return nil }
        let height = points * 1.2
        let width = max(height * 0.5, min(height * 2, height * box.width / max(1, box.height)))
        return (width.rounded(.up), height.rounded(.up))
    }

    /// The side of a symbol's 100-unit drawing at a font size, in points (1.1 times the size), at
    /// most what fits `room` by the drawing's bounds (its place, when smaller): what layout sizes a
    /// resizable symbol to and what the SVG draws.
    static func drawnSide(_ name: String, points: Double, room: (width: Double, height: Double) = (.infinity, .infinity)) -> Double {
        let box = bounds(name) ?? (x: 0, y: 0, width: 100, height: 100)
        return max(0, min(points * 1.1, room.height * 100 / max(1, box.height), room.width * 100 / max(1, box.width)))
    }

    /// The points a path's data passes through or bends towards.
    struct Box {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var isEmpty: Bool { minX > maxX }

        mutating func include(_ x: Double, _ y: Double, pad: Double) {
            minX = min(minX, x - pad)
            maxX = max(maxX, x + pad)
            minY = min(minY, y - pad)
            maxY = max(maxY, y + pad)
        }

        mutating func add(path: String, pad: Double) {
            var tokens: [Substring] = []
            var current = ""
            func flush() {
                if !current.isEmpty { tokens.append(Substring(current)) }
                current = ""
            }
            for character in path {
                if character.isLetter {
                    flush()
                    tokens.append(Substring(String(character)))
                } else if character == " " || character == "," {
                    flush()
                } else if character == "-", !current.isEmpty {
                    // A minus starts a number of its own (the drawings write no exponents).
                    flush()
                    current.append(character)
                } else {
                    current.append(character)
                }
            }
            flush()
            var index = 0
            var command: Character = "M"
            var (x, y) = (0.0, 0.0)
            func number() -> Double? {
                guard index < tokens.count, let value = Double(tokens[index]) else { return nil }
                index += 1
                return value
            }
            while index < tokens.count {
                if let letter = tokens[index].first, letter.isLetter {
                    command = letter
                    index += 1
                    if command == "Z" || command == "z" { continue }
                }
                switch command {
                case "M", "L", "T":
                    guard let nx = number(), let ny = number() else { return }
                    (x, y) = (nx, ny)
                    include(x, y, pad: pad)
                case "H":
                    guard let nx = number() else { return }
                    x = nx
                    include(x, y, pad: pad)
                case "V":
                    guard let ny = number() else { return }
                    y = ny
                    include(x, y, pad: pad)
                case "C", "S", "Q":
                    let count = command == "C" ? 3 : 2
                    for _ in 0..<count {
                        guard let nx = number(), let ny = number() else { return }
                        (x, y) = (nx, ny)
                        include(x, y, pad: pad)
                    }
                case "A":
                    guard let rx = number(), let ry = number(), let _ = number(), let large = number(), let sweep = number(), let nx = number(),
                        let ny = number()
                    else { return }
                    addArc(from: (x, y), to: (nx, ny), rx: rx, ry: ry, large: large != 0, sweep: sweep != 0, pad: pad)
                    (x, y) = (nx, ny)
                default:
                    index += 1
                }
            }
        }

        /// An arc's points, found from SVG's endpoint form (its centre, then 32 points of its sweep).
        mutating func addArc(from start: (Double, Double), to end: (Double, Double), rx: Double, ry: Double, large: Bool, sweep: Bool, pad: Double) {
            include(end.0, end.1, pad: pad)
            var (rx, ry) = (abs(rx), abs(ry))
            guard rx > 0, ry > 0 else { return }
            let dx = (start.0 - end.0) / 2, dy = (start.1 - end.1) / 2
            let lambda = (dx * dx) / (rx * rx) + (dy * dy) / (ry * ry)
            if lambda > 1 { (rx, ry) = (rx * lambda.squareRoot(), ry * lambda.squareRoot()) }
            let numerator = rx * rx * ry * ry - rx * rx * dy * dy - ry * ry * dx * dx
            let denominator = rx * rx * dy * dy + ry * ry * dx * dx
            var factor = denominator == 0 ? 0 : (max(0, numerator) / denominator).squareRoot()
            if large == sweep { factor = -factor }
            let cx = factor * rx * dy / ry + (start.0 + end.0) / 2
            let cy = -factor * ry * dx / rx + (start.1 + end.1) / 2
            let from = atan2((start.1 - cy) / ry, (start.0 - cx) / rx)
            var delta = atan2((end.1 - cy) / ry, (end.0 - cx) / rx) - from
            if sweep, delta < 0 { delta += 2 * .pi }
            if !sweep, delta > 0 { delta -= 2 * .pi }
            if abs(delta) < 1e-9, large { delta = sweep ? 2 * .pi : -2 * .pi }
            for step in 0...32 {
                let angle = from + delta * Double(step) / 32
                include(cx + rx * cos(angle), cy + ry * sin(angle), pad: pad)
            }
        }
    }
}
