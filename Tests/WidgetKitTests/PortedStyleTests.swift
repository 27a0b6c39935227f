import Foundation
import Testing
import WidgetWire

@testable import WidgetKit

/// Styles and UIKit calls iOS widget code makes, as it writes them: an author's `ButtonStyle`,
/// `ToggleStyle` and `LabelStyle` draw the control, shapes by their static names, UIKit's colour
/// components and fonts.
@Suite struct PortedStyleTests {
    struct Pill: ButtonStyle {
        @Environment(\.colorScheme) var scheme
        func makeBody(configuration: Configuration) -> some View {
            configuration.label
                .padding(6)
                .background(scheme == .dark ? Color.white : Color.black, in: .capsule)
                .opacity(configuration.isPressed ? 0.5 : 1)
        }
    }

    struct Check: ToggleStyle {
        func makeBody(configuration: Configuration) -> some View {
            HStack {
                Image(systemName: configuration.isOn ? "checkmark.circle.fill" : "circle")
                configuration.label
            }
        }
    }

    struct Stacked: LabelStyle {
        func makeBody(configuration: Configuration) -> some View {
            VStack {
                configuration.icon
                configuration.title
            }
        }
    }

    func resolve(_ view: some View, scheme: ColorScheme = .light) -> ViewNode {
        var environment = EnvironmentValues()
        environment.colorScheme = scheme
        return ViewResolver.root(of: view, in: environment)
    }

    @Test func anAuthorsButtonStyleDrawsTheButtonWhichStillPerformsItsIntent() throws {
        let button = resolve(Button("Like", intent: LikeIntent(item: "tea")).buttonStyle(Pill()), scheme: .dark)
        #expect(button.view == "button")
        #expect(button["intent"]?["type"] == .string("WidgetKitTests.LikeIntent"))
        #expect(button.modifiers.contains { $0.name == "buttonStyle" && $0.value == .string("plain") }, "the style's body is the whole look")
        let body = try #require(button.children.first)
        #expect(body.view == "background" && body.children.map(\.view) == ["text", "shape"], "\(body.view) \(body.children.map(\.view))")
        #expect(body.children[0]["text"] == .string("Like") && body.children[0].modifiers.contains { $0.name == "padding" })
        #expect(body.children[1].json.jsonText.contains("white"), "the style reads the environment: \(body.children[1].json.jsonText)")
        // A button with no style is the system's; one given a system style inside an author's
        // style is the system's too (the innermost style wins, as in SwiftUI).
        let plain = resolve(Button("Like", intent: LikeIntent(item: "tea")))
        #expect(!plain.modifiers.contains { $0.name == "buttonStyle" })
        let inner = resolve(VStack { Button("Like", intent: LikeIntent(item: "tea")).buttonStyle(.bordered) }.buttonStyle(Pill()))
        let system = try #require(inner.children.first)
        #expect(system.view == "button" && system.children.first?.view == "text", "the label itself, not the author's body: \(system.children.map { $0.view })")
        #expect(system.modifiers.map { $0.value } == [.string("bordered")], "\(system.modifiers)")
    }

    @Test func anAuthorsToggleStyleDrawsItsBodyAndATapPerformsTheToggle() throws {
        let on = resolve(Toggle("Done", isOn: true, intent: LikeIntent(item: "task")).toggleStyle(Check()))
        #expect(on.view == "button", "a tap on the styled body performs the toggle's intent")
        #expect(on["intent"]?["parameters"]?["item"] == .string("task"))
        let row = try #require(on.children.first)
        #expect(row.view == "hstack")
        #expect(row.children.map(\.view) == ["image", "text"])
        #expect(row.children[0]["systemName"] == .string("checkmark.circle.fill"))
        let off = resolve(Toggle("Done", isOn: false, intent: LikeIntent(item: "task")).toggleStyle(Check()))
        #expect(off.children.first?.children.first?["systemName"] == .string("circle"))
        // The system's styles stay what they were.
        #expect(resolve(Toggle("Done", isOn: true, intent: LikeIntent(item: "task")).toggleStyle(.switch)).view == "toggle")
    }

    @Test func anAuthorsLabelStyleArrangesIconAndTitle() {
        let label = resolve(Label("Rain", systemImage: "cloud.rain").labelStyle(Stacked()))
        #expect(label.view == "vstack")
        #expect(label.children.map(\.view) == ["image", "text"])
        #expect(resolve(Label("Rain", systemImage: "cloud.rain").labelStyle(.iconOnly)).view == "label")
    }

    @Test func shapesByTheirStaticNames() {
        func shape(_ view: some View) -> JSONValue? { resolve(view).modifiers.first { $0.name == "clipShape" }?.value }
        #expect(shape(Color.red.clipShape(.rect(cornerRadius: 12)))?["cornerRadius"] == .number(12))
        #expect(shape(Color.red.clipShape(.circle))?["shape"] == .string("circle"))
        #expect(shape(Color.red.clipShape(.capsule))?["shape"] == .string("capsule"))
        #expect(shape(Color.red.clipShape(.rect))?["shape"] == .string("rectangle"))
    }

    @Test func uiColorGivesItsComponentsAsIOSHasThem() {
        var red: CGFloat = 0, green: CGFloat = 0, blue: CGFloat = 0, alpha: CGFloat = 0
        #expect(UIColor(Color.red).getRed(&red, green: &green, blue: &blue, alpha: &alpha))
        #expect(abs(red - 1) < 0.001 && abs(green - 59.0 / 255) < 0.001 && abs(blue - 48.0 / 255) < 0.001 && alpha == 1)
        #expect(UIColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5).getRed(&red, green: &green, blue: &blue, alpha: &alpha))
        #expect(abs(red - 0.2) < 0.003 && abs(green - 0.4) < 0.003 && abs(blue - 0.6) < 0.003 && abs(alpha - 0.5) < 0.001)
        var dark = EnvironmentValues()
        dark.colorScheme = .dark
        let resolved = Color.red.resolve(in: dark)
        #expect(abs(resolved.green - 69.0 / 255) < 0.001, "iOS's dark red")
        var hue: CGFloat = 0, saturation: CGFloat = 0, brightness: CGFloat = 0
        #expect(UIColor(Color.blue).getHue(&hue, saturation: &saturation, brightness: &brightness, alpha: &alpha))
        #expect(abs(hue - 211.3 / 360) < 0.01 && abs(brightness - 1) < 0.001)
    }

    @Test func uiFontsDrawAsTheSwiftUIFontTheyName() {
        let font = Font(UIFont.systemFont(ofSize: 14, weight: .semibold))
        #expect(font.json["size"] == .number(14) && font.json["weight"] == .string("semibold"))
        #expect(Font(UIFont.preferredFont(forTextStyle: .headline)).json == .string("headline"))
        #expect(UIFont.preferredFont(forTextStyle: .body).pointSize == 17)
        #expect(Font(UIFont.systemFont(ofSize: 20, weight: .bold, width: .condensed)).json["width"] == .number(-0.2))
    }
}

/// `Color.gradient` as iOS draws it: opaque, lighter at the top; a colour too light for that,
/// darker at the bottom.
@Suite struct ColorGradientTests {
    @Test func aColoursGradientIsOpaqueLighterAtTheTop() {
        let teal = Color.teal.gradient._paint
        let stops = teal["linearGradient"]?["stops"]?.arrayValue?.compactMap { $0["color"]?.stringValue }
        #expect(stops == ["mix:teal:white:0.25", "teal"], "\(teal.jsonText)")
        let white = Color.white.gradient._paint["linearGradient"]?["stops"]?.arrayValue?.compactMap { $0["color"]?.stringValue }
        #expect(white == ["white", "mix:white:black:0.1"], "\(String(describing: white))")
    }
}

/// A `Canvas` as widget code draws a sparkline: its filled and stroked paths become shapes, in the
/// canvas's reference size (the widget's content), under its transform and opacity.
@Suite struct CanvasTests {
    @Test func aCanvasIsItsPathsAsShapes() throws {
        var environment = EnvironmentValues()
        environment.widgetFamily = .systemSmall
        let canvas = Canvas { context, size in
            context.fill(Path(CGRect(x: 0, y: 0, width: size.width, height: 10)), with: .color(.red))
            context.opacity = 0.5
            context.translateBy(x: 5, y: 0)
            var line = Path()
            line.move(to: CGPoint(x: 0, y: 20))
            line.addLine(to: CGPoint(x: 40, y: 30))
            context.stroke(line, with: .color(.blue), style: StrokeStyle(lineWidth: 2, dash: [4, 2]))
        }
        let node = ViewResolver.root(of: canvas, in: environment)
        #expect(node.view == "zstack" && node.children.count == 2)
        let fill = node.children[0]
        #expect(fill["shape"] == .string("path") && fill["fill"] == .string("red"))
        #expect(fill["reference"] == .array([.number(Double(environment.contentSize.width)), .number(Double(environment.contentSize.height))]))
        let stroke = node.children[1]
        #expect(stroke["stroke"]?["lineWidth"] == .number(2) && stroke["stroke"]?["dash"] == .array([.number(4), .number(2)]))
        #expect(stroke["stroke"]?["paint"] == .string("blue/0.5"), "the context's opacity: \(stroke.json.jsonText)")
        #expect(stroke["path"]?.arrayValue?.first == .array([.string("M"), .number(5), .number(20)]), "moved by the transform: \(stroke.json.jsonText)")
    }
}

/// `AsyncImage` in a widget is drawn as iOS draws it there, before any download: its placeholder.
@Suite struct AsyncImageTests {
    func resolve(_ view: some View) -> ViewNode { ViewResolver.root(of: view, in: EnvironmentValues()) }

    @Test func anAsyncImageIsItsPlaceholder() {
        let url = URL(string: "https://example.org/a.png")
        let given = resolve(AsyncImage(url: url) { image in image.resizable() } placeholder: { Text("Loading") })
        #expect(given.view == "text" && given["text"] == .string("Loading"))
        let phased = resolve(
            AsyncImage(url: url) { phase in
                if let image = phase.image { image } else if phase.error != nil { Text("Failed") } else { Text("Empty") }
            })
        #expect(phased["text"] == .string("Empty"), "the .empty phase: \(phased.json.jsonText)")
        let plain = resolve(AsyncImage(url: url))
        #expect(plain.view == "shape" && plain["fill"] == .string("quaternary"), "\(plain.json.jsonText)")
    }
}
