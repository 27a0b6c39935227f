import Foundation
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetTimelines
import WidgetWire

// MARK: - Rendering

struct FrameResult {
    let widgets: Int
    /// Milliseconds per frame: a tick that lays out and draws every box and writes what changed.
    let frame: [Double]
    /// Milliseconds per frame of the floor: the same trees as plain text, no layout.
    let plainText: [Double]
    /// Milliseconds per full frame: all boxes laid out and drawn again.
    let full: [Double]
    /// Milliseconds per gallery page of the same widgets in SVG, text measured in the font and by
    /// average widths; nanoseconds per string measured each way; whether the font is installed.
    let svgPageFont: [Double]
    let svgPageAverage: [Double]
    let stringFont: [Double]
    let stringAverage: [Double]
    let fontInstalled: Bool
    /// Cells written per tick when only a timer's seconds change, and when nothing changes.
    let cellsPerTick: Double
    let cellsPerIdleTick: Double
    let cellsOnScreen: Int
}

/// `widgets` widgets on the dashboard (a status widget like the game sample's, in small, medium and
/// large), one of them with a timer, on a virtual clock: each tick lays out and draws all of them,
/// compares with the last frame, and writes the difference (to nowhere).
///
/// Written as an iOS 17 widget is: no padding of its own (the system's content margins inset it), a
/// label with a symbol at its natural size (`fixedSize`), a ring gauge, a layout priority, a
/// translucent colour, an overlay and a container background.
func benchmarkFrames(widgets: Int, frames: Int) -> FrameResult {
    func text(_ value: String, _ modifiers: [ViewModifierNode] = []) -> ViewNode {
        ViewNode("text", attributes: JSONObject([("text", .string(value))]), modifiers: modifiers)
    }
    func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(JSONObject(members)) }
    let start = 1_800_000_000.0
    func tree(_ number: Int, timer: Bool) -> ViewNode {
        let rows = (0..<3).map { row in
            ViewNode(
                "hstack",
                children: [
                    text("Hero \(number)-\(row)", [ViewModifierNode("layoutPriority", .number(1))]), ViewNode("spacer"),
                    text("♥ \(40 + row * 7)", [ViewModifierNode("foregroundStyle", .string("red/0.8"))]),
                ])
        }
        let status =
            timer
            ? ViewNode("text", attributes: JSONObject([("date", .number(start + 3600)), ("dateStyle", .string("timer"))]))
            : text("The party rests at the inn before the climb", [ViewModifierNode("minimumScaleFactor", .number(0.8))])
        let label = ViewNode(
            "label", children: [ViewNode("image", attributes: JSONObject([("systemName", .string("star.fill"))])), text("Game \(number)")],
            modifiers: [
                ViewModifierNode("font", .string("headline")),
                ViewModifierNode("fixedSize", object([("horizontal", .bool(true)), ("vertical", .bool(true))])),
            ])
        let gauge = ViewNode(
            "gauge", attributes: JSONObject([("value", .number(Double(number % 10))), ("min", .number(0)), ("max", .number(10))]),
            children: [ViewNode("gaugeValue", children: [text("\(number % 10)")])],
            modifiers: [
                ViewModifierNode("gaugeStyle", .string("accessoryCircularCapacity")), ViewModifierNode("tint", .string("green")),
                ViewModifierNode("frame", object([("width", .number(32)), ("height", .number(32))])),
            ])
        let header = ViewNode("hstack", children: [label, ViewNode("spacer"), gauge])
        let content = ViewNode(
            "vstack", attributes: JSONObject([("alignment", .string("leading"))]), children: [header, status, ViewNode("divider")] + rows)
        let dot = ViewNode(
            "shape", attributes: JSONObject([("shape", .string("circle")), ("fill", .string("orange"))]),
            modifiers: [ViewModifierNode("frame", object([("width", .number(8)), ("height", .number(8))]))])
        return ViewNode(
            "overlay", attributes: JSONObject([("alignment", .string("topTrailing"))]), children: [content, dot],
            modifiers: [ViewModifierNode("containerBackground", .string("gray/0.2"))])
    }
    let clock = ManualClock(now: Date(timeIntervalSince1970: start))
    let sink = LockedCounter()
    let dashboard = Dashboard(
        renderer: TerminalRenderer(colorMode: .truecolor, appearance: .dark), clock: clock, width: 240,
        dates: DateText(timeZone: TimeZone(identifier: "UTC")!)) { sink.add($0.utf8.count) }
    let families: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge]
    var trees: [ViewNode] = []
    for number in 0..<widgets {
        let view = tree(number, timer: number == 0)
        trees.append(view)
        dashboard.show(
            id: String(format: "w-%03d", number), family: families[number % 3], title: "Game",
            status: InstanceStatus(phase: .showing, entry: WireEntry(date: start, view: view)))
    }
    let cellsOnScreen = dashboard.text.split(separator: "\n").reduce(0) { $0 + $1.count }
    var frame: [Double] = []
    var cells: [Int] = []
    for _ in 0..<frames {
        let before = dashboard.cellsWritten
        let began = nanoseconds()
        clock.advance(by: 1)  // the tick: lay out, draw, compare, write
        frame.append(Double(nanoseconds() - began) / 1e6)
        cells.append(dashboard.cellsWritten - before)
    }
    // A full frame: every box laid out and drawn again, the whole screen compared.
    var full: [Double] = []
    for _ in 0..<max(1, ProcessInfo.processInfo.environment["BENCH_FULL_FRAMES"].flatMap { Int($0) } ?? frames / 4) {
        dashboard.invalidate()
        let began = nanoseconds()
        dashboard.redraw()
        full.append(Double(nanoseconds() - began) / 1e6)
    }
    // With nothing live, a redraw compares and writes nothing.
    let idleBefore = dashboard.cellsWritten
    dashboard.redraw()
    let idleCells = dashboard.cellsWritten - idleBefore
    let plainText = (0..<frames).map { _ -> Double in
        let began = nanoseconds()
        for view in trees { blackHole(PlainTextRenderer.lines(view)) }
        return Double(nanoseconds() - began) / 1e6
    }
    // A gallery page of the same widgets in SVG, text measured in the font and by averages.
    func page(_ renderer: SVGRenderer) -> Double {
        let began = nanoseconds()
        for (number, view) in trees.enumerated() { blackHole(renderer.render(view, family: families[number % 3], now: Date(timeIntervalSince1970: start))) }
        return Double(nanoseconds() - began) / 1e6
    }
    var averaged = SVGRenderer(appearance: .light)
    averaged.measuresWithFont = false
    let measured = SVGRenderer(appearance: .light)
    var svgFont: [Double] = []
    var svgAverage: [Double] = []
    for _ in 0..<max(5, frames / 10) {
        svgAverage.append(page(averaged))
        svgFont.append(page(measured))
    }
    // One string, measured: in the font, and by the averages' table.
    var style = TextStyle()
    style.font = "body"
    let sentence = "The party rests at the inn before the climb"
    let (inFont, byAverage) = (PointMetrics(), PointMetrics(measuresWithFont: false))
    let stringFont = sample(iterations: 20_000, warmup: 1_000) { blackHole(inFont.width(of: sentence, style: style)) }
    let stringAverage = sample(iterations: 20_000, warmup: 1_000) { blackHole(byAverage.width(of: sentence, style: style)) }
    return FrameResult(
        widgets: widgets, frame: frame.sorted(), plainText: plainText.sorted(), full: full.sorted(),
        svgPageFont: svgFont.sorted(), svgPageAverage: svgAverage.sorted(), stringFont: stringFont.sorted(), stringAverage: stringAverage.sorted(),
        fontInstalled: SystemFont.isAvailable,
        cellsPerTick: Double(cells.reduce(0, +)) / Double(max(1, cells.count)), cellsPerIdleTick: Double(idleCells),
        cellsOnScreen: cellsOnScreen)
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    func add(_ count: Int) { lock.withLock { total += count } }
}
