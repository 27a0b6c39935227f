import Foundation
import Testing
import WidgetWire

@testable import WidgetKit

/// Idioms of widget code written for iOS that compile and resolve as there: type-erased views and
/// styles, a colour or gradient as a background, lazy grids, UIKit's colours and symbols, localized
/// strings.
@Suite struct PortedIdiomTests {
    func resolve(_ view: some View, colorScheme: ColorScheme = .light) -> ViewNode {
        var environment = EnvironmentValues()
        environment.widgetFamily = .systemSmall
        environment.colorScheme = colorScheme
        return ViewResolver.root(of: view, in: environment)
    }

    @Test func aColourOrGradientGivenAsBackgroundOrOverlayIsAStyleAndAViewIsALayer() {
        // Both a view and a style: SwiftUI takes the style, and so does the SDK (no ambiguity).
        let colour = Color.red.opacity(0.5)
        #expect(resolve(Text("a").background(colour)).modifier("background") == .string("red/0.5"))
        #expect(resolve(Text("a").background(Color.red)).modifier("background") == .string("red"))
        let gradient = LinearGradient(colors: [.red, .blue], startPoint: .top, endPoint: .bottom)
        #expect(resolve(Text("a").background(gradient)).modifier("background") == gradient._paint)
        #expect(resolve(Text("a").overlay(Color.red)).view == "overlay")
        // A view only: a layer behind it.
        #expect(resolve(Text("a").background(Text("b"))).view == "background")
    }

    @Test func anyViewAndAnyShapeStyleResolveAsWhatTheyHold() {
        func badge(_ on: Bool) -> AnyView { on ? AnyView(Text("on")) : AnyView(Image(systemName: "star")) }
        #expect(resolve(badge(true)) == resolve(Text("on")))
        #expect(resolve(badge(false)) == resolve(Image(systemName: "star")))
        let style = AnyShapeStyle(Color.green)
        #expect(resolve(Rectangle().fill(style)) == resolve(Rectangle().fill(Color.green)))
    }

    @Test func aLazyGridLinesItsCellsUpInColumnsAndFillsOutTheLastRow() {
        let grid = LazyVGrid(columns: [GridItem(.fixed(40)), GridItem(.flexible(), spacing: 2)], spacing: 6) {
            ForEach(0..<3) { Text("\($0)") }
        }
        let node = resolve(grid)
        #expect(node.view == "vstack")
        #expect(node["spacing"] == .number(6))
        #expect(node.children.count == 2, "three cells in two columns: two rows")
        let rows = node.children
        #expect(rows.allSatisfy { $0.view == "hstack" && $0.children.count == 2 && $0["spacing"] == .number(0) })
        #expect(rows[0].children.map { $0["text"] } == [.string("0"), .string("1")])
        #expect(rows[1].children[0]["text"] == .string("2"))
        #expect(rows[1].children[1]["text"] == nil, "an empty cell keeps the second column's place")
        // The fixed column is 40 wide, then the default 8 apart; the flexible one takes the rest.
        let fixed = rows[0].children[0].modifiers
        #expect(fixed.first { $0.name == "frame" }?.value["minWidth"] == .number(40))
        #expect(fixed.first { $0.name == "frame" }?.value["maxWidth"] == .number(40))
        #expect(fixed.first { $0.name == "padding" } != nil)
        let flexible = rows[0].children[1].modifiers.first { $0.name == "frame" }?.value
        #expect(flexible?["maxWidth"] == .string("infinity"))

        let horizontal = resolve(LazyHGrid(rows: [GridItem(), GridItem(), GridItem()]) { ForEach(0..<4) { Text("\($0)") } })
        #expect(horizontal.view == "hstack")
        #expect(horizontal.children.map(\.children.count) == [3, 3], "four cells in three rows: two columns, filled out")
        #expect(horizontal.children[0].children[0].modifiers.first { $0.name == "frame" }?.value["maxHeight"] == .string("infinity"))
    }

    @Test func uiKitColoursAndSymbolsAreTheSDKs() {
        #expect(resolve(Text("a").foregroundColor(Color(UIColor.secondaryLabel))).modifier("foregroundColor") == .string("secondary"))
        #expect(Color(UIColor.black) == .black)
        #expect(Color(uiColor: UIColor.systemRed.withAlphaComponent(0.5)) == Color.red.opacity(0.5))
        #expect(resolve(Image(uiImage: UIImage(systemName: "star.fill")!)) == resolve(Image(systemName: "star.fill")))
        #expect(UIImage(systemName: "") == nil)
        // A dynamic colour is chosen for the appearance of the view being built.
        struct Tinted: View {
            var body: some View {
                Text("a").foregroundColor(Color(UIColor { $0.userInterfaceStyle == .dark ? .white : .black }))
            }
        }
        #expect(resolve(Tinted()).modifier("foregroundColor") == .string("black"))
        #expect(resolve(Tinted(), colorScheme: .dark).modifier("foregroundColor") == .string("white"))
    }

    @Test func localizedStringsAreTheirTextWithInterpolationsFilledIn() {
        let count = 3
        #expect(String(localized: "\(count) steps", comment: "A count") == "3 steps")
        #expect(String(localized: "steps.count", defaultValue: "\(count) steps") == "3 steps")
        #expect(String(localized: LocalizedStringResource("Walk")) == "Walk")
    }

    @Test func iOS18sAccentedImagesAndURLButtonsAndEmptyConfigurationsMeanWhatTheyMeanThere() {
        let accented = resolve(Image(systemName: "star").widgetAccentedRenderingMode(.accented))
        #expect(accented.modifier("widgetAccentable") == .bool(true))
        let full = resolve(Image(systemName: "star").widgetAccentedRenderingMode(.fullColor))
        #expect(full == resolve(Image(systemName: "star")))

        let url = URL(string: "myapp://item/7")!
        let button = resolve(Button(intent: OpenURLIntent(url)) { Text("Open") })
        #expect(button.view == "link")
        #expect(button["url"] == .string("myapp://item/7"))
        #expect(button.children.first?["text"] == .string("Open"))

        struct Unavailable: Widget {
            var body: some WidgetConfiguration { EmptyWidgetConfiguration() }
        }
        #expect(Unavailable()._definitions().isEmpty)
    }

    @Test func anEntitysPropertiesAreStoredValuesWithTitles() {
        struct City: AppEntity {
            static let typeDisplayRepresentation: TypeDisplayRepresentation = "City"
            static let defaultQuery = CityQuery()
            let id: String
            @Property(title: "Name") var name: String
            var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)") }
            init(id: String, name: String) {
                self.id = id
                self.name = name
            }
        }
        struct CityQuery: EntityQuery {
            func entities(for identifiers: [String]) async throws -> [City] { [] }
        }
        let city = City(id: "por", name: "Porto")
        #expect(city.name == "Porto")
        #expect(city.$name.title == "Name")
        city.name = "Faro"
        #expect(city.displayRepresentation.title == "Faro")
    }

    @Test func aPathIsDrawnInTheViewsPointsAndACustomShapeInTheWidgetsSize() {
        let path = Path { p in
            p.move(to: CGPoint(x: 0, y: 10))
            p.addLine(to: CGPoint(x: 20, y: 0))
            p.addQuadCurve(to: CGPoint(x: 40, y: 10), control: CGPoint(x: 30, y: 0))
            p.closeSubpath()
        }
        let node = resolve(path.stroke(Color.red, lineWidth: 2))
        #expect(node["shape"] == .string("path"))
        #expect(node["reference"] == nil, "a Path as a view is in its own points")
        #expect(node["path"]?.jsonText == #"[["M",0,10],["L",20,0],["Q",30,0,40,10],["Z"]]"#)
        #expect(path.boundingRect == CGRect(x: 0, y: 0, width: 40, height: 10))

        // An author's shape: its path(in:) made in the widget's size, which the host scales.
        struct Sparkline: Shape {
            let values: [Double]
            func path(in rect: CGRect) -> Path {
                Path { p in
                    for (index, value) in values.enumerated() {
                        let point = CGPoint(x: rect.width * Double(index) / Double(values.count - 1), y: rect.height * (1 - value))
                        if index == 0 { p.move(to: point) } else { p.addLine(to: point) }
                    }
                }
            }
        }
        var environment = EnvironmentValues()
        environment.widgetFamily = .systemMedium
        let spark = ViewResolver.root(of: Sparkline(values: [0, 1, 0.5]).stroke(Color.blue), in: environment)
        #expect(spark["reference"] == JSONValue.array([.number(338), .number(158)]))
        #expect(spark["path"]?.jsonText == #"[["M",0,158],["L",169,0],["L",338,79]]"#)
        #expect(resolve(Sparkline(values: [0, 1]).trim(from: 0, to: 0.5))["trim"] == .array([.number(0), .number(0.5)]))
        // As a clip too, made in the widget's size.
        let clipped = ViewResolver.root(of: Text("a").clipShape(Sparkline(values: [0, 1])), in: environment)
        #expect(clipped.modifier("clipShape")?["reference"] == JSONValue.array([.number(338), .number(158)]))
        #expect(clipped.modifier("clipShape")?["shape"] == .string("path"))

        // The SDK's shapes give their paths for use in one's own.
        let rect = CGRect(x: 0, y: 0, width: 20, height: 10)
        #expect(Rectangle().path(in: rect).boundingRect == rect)
        #expect(Circle().path(in: rect).boundingRect.width.rounded() == 10)
        var arc = Path()
        arc.addArc(center: CGPoint(x: 10, y: 10), radius: 10, startAngle: .degrees(0), endAngle: .degrees(90), clockwise: false)
        #expect(arc.currentPoint.map { abs($0.x - 10) < 1e-9 && abs($0.y - 20) < 1e-9 } == true, "a quarter turn down, in a view's flipped axes")
        // After a closed subpath, the next starts where that one did; a line then continues from there.
        var closed = Path()
        closed.move(to: CGPoint(x: 1, y: 1))
        closed.addLine(to: CGPoint(x: 5, y: 1))
        closed.closeSubpath()
        #expect(closed.currentPoint == CGPoint(x: 1, y: 1))
        closed.move(to: CGPoint(x: 7, y: 7))
        closed.addLine(to: CGPoint(x: 9, y: 7))
        closed.closeSubpath()
        #expect(closed.currentPoint == CGPoint(x: 7, y: 7))
        #expect(Path().currentPoint == nil)
        // Angles far beyond a turn, or not numbers, draw a whole circle, or nothing, and return.
        var wound = Path()
        wound.addArc(center: .zero, radius: 5, startAngle: .radians(0), endAngle: .radians(1e300), clockwise: false)
        #expect(wound.boundingRect.width.rounded() == 10)
        var broken = Path()
        broken.addArc(center: .zero, radius: .nan, startAngle: .zero, endAngle: .degrees(90), clockwise: false)
        #expect(broken.isEmpty)
    }

    @Test func userDefaultsTakeKeyValueCodingsCalls() throws {
        let suite = "org.example.kvc-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.setValue("Spouty", forKey: "ranger")
        #expect(defaults.value(forKey: "ranger") as? String == "Spouty")
        defaults.setValue(nil, forKey: "ranger")
        #expect(defaults.value(forKey: "ranger") == nil)
    }

    @Test func selectableTextAndAlignmentGuidesCompileAndLeaveTheViewAsItIs() {
        let plain = resolve(Text("a"))
        #expect(resolve(Text("a").textSelection(.enabled)) == plain)
        #expect(resolve(Text("a").textSelection(.disabled)) == plain)
        #expect(resolve(Text("a").alignmentGuide(.leading) { $0[.trailing] }) == plain)
    }

    @Test func aColourMixedWithAnotherTravelsAsTheirMix() {
        #expect(resolve(Text("a").foregroundColor(Color.red.mix(with: .blue, by: 0.25))).modifier("foregroundColor") == .string("mix:red:blue:0.25"))
        #expect(resolve(Text("a").foregroundColor(Color.red.opacity(0.5).mix(with: .mint, by: 2))).modifier("foregroundColor") == .string("mix:red:mint:1.0"))
    }
}
