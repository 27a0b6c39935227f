import Foundation
import Testing
@testable import WidgetKit
import WidgetWire

struct FamilyView: View {
    @Environment(\.widgetFamily) var family
    let title: String

    var body: some View {
        switch family {
        case .accessoryInline:
            Text(title)
        case .systemSmall:
            VStack(alignment: .leading) {
                Text(title).font(.headline)
                Spacer()
            }
        default:
            HStack(spacing: 4) {
                Text(title)
                if title.count > 3 {
                    Text("long")
                }
            }
        }
    }
}

@Suite struct ViewResolutionTests {
    func resolve(_ view: some View, family: WidgetFamily = .systemSmall) -> ViewNode {
        var environment = EnvironmentValues()
        environment.widgetFamily = family
        return ViewResolver.root(of: view, in: environment)
    }

    @Test func stackOfTextResolvesToATree() {
        let node = resolve(VStack { Text("Hello") })
        #expect(node == ViewNode("vstack", children: [ViewNode("text", attributes: JSONObject([("text", .string("Hello"))]))]))
        #expect(node.json.jsonText == #"{"view":"vstack","children":[{"view":"text","text":"Hello"}]}"#)
    }

    @Test func environmentFamilySelectsTheBranch() {
        #expect(resolve(FamilyView(title: "Hi"), family: .accessoryInline).view == "text")
        let small = resolve(FamilyView(title: "Hi"), family: .systemSmall)
        #expect(small.view == "vstack")
        #expect(small["alignment"] == .string("leading"))
        #expect(small.children.map(\.view) == ["text", "spacer"])
        #expect(small.children[0].modifier("font") == .string("headline"))
        let medium = resolve(FamilyView(title: "Hello"), family: .systemMedium)
        #expect(medium.view == "hstack")
        #expect(medium["spacing"] == .number(4))
        #expect(medium.children.count == 2, "the if branch is taken for a long title")
        #expect(resolve(FamilyView(title: "Hi"), family: .systemMedium).children.count == 1)
    }

    @Test func modifiersAreRecordedInTheOrderApplied() {
        let node = resolve(Text("x").bold().foregroundColor(.red).padding(.horizontal, 8).font(.system(size: 12, weight: .semibold)))
        #expect(node.modifiers.map(\.name) == ["bold", "foregroundColor", "padding", "font"])
        #expect(node.modifier("foregroundColor") == .string("red"))
        #expect(node.modifier("padding") == .object(JSONObject([("top", .number(0)), ("leading", .number(8)), ("bottom", .number(0)), ("trailing", .number(8))])))
        #expect(node.modifier("font") == .object(JSONObject([("size", .number(12)), ("weight", .string("semibold"))])))
        #expect(resolve(Text("x").padding()).modifier("padding")?["top"] == .number(16))
        #expect(resolve(Text("x").foregroundColor(Color(red: 1, green: 0.5, blue: 0))).modifier("foregroundColor") == .string("#ff8000"))
    }

    @Test func groupAppliesAModifierToEachChildAndForEachRepeats() {
        let node = resolve(VStack { Group { Text("a"); Text("b") }.bold() })
        #expect(node.children.map { $0.modifier("bold") } == [.bool(true), .bool(true)])
        let list = resolve(VStack { ForEach(["x", "y", "z"], id: \.self) { Text($0) } })
        #expect(list.children.map { $0["text"] } == ["x", "y", "z"].map(JSONValue.string))
    }

    @Test func datesInTextGoOnTheWireForTheHostToFormat() {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let timer = resolve(Text(date, style: .timer))
        #expect(timer["date"] == .number(1_800_000_000))
        #expect(timer["dateStyle"] == .string("timer"))
        #expect(timer["text"] == .string("2027-01-15T08:00:00Z"), "a fallback for hosts that do not format")
        let range = resolve(Text(date...date.addingTimeInterval(60)))
        #expect(range["dateRange"] == .array([.number(1_800_000_000), .number(1_800_000_060)]))
        let countdown = resolve(Text(timerInterval: date...date.addingTimeInterval(60), countsDown: false))
        #expect(countdown["timerInterval"] == .array([.number(1_800_000_000), .number(1_800_000_060)]))
        #expect(countdown["countsDown"] == .bool(false))
        #expect(countdown["pauseTime"] == nil)
    }

    @Test func severalRootViewsStackVertically() {
        struct Two: View {
            var body: some View {
                Text("one")
                Text("two")
            }
        }
        #expect(resolve(Two()).view == "vstack")
        #expect(resolve(Two()).children.count == 2)
    }

    @Test func zStackAlignmentUsesSwiftUISpelling() {
        #expect(resolve(ZStack(alignment: .topLeading) { Text("a") })["alignment"] == .string("topLeading"))
        #expect(resolve(ZStack(alignment: .bottom) { Text("a") })["alignment"] == .string("bottom"))
        #expect(resolve(ZStack { Text("a") })["alignment"] == nil)
    }
}

extension ViewResolutionTests {
    @Test func layoutModifiersGoOnTheWire() {
        let node = resolve(
            Text("x").frame(maxWidth: .infinity, alignment: .topLeading).frame(width: 40).lineLimit(2).multilineTextAlignment(.center)
                .fontWeight(.semibold).background(.red).containerBackground(.blue, for: .widget).widgetAccentable().privacySensitive())
        #expect(node.modifier("frame") == .object(JSONObject([("maxWidth", .string("infinity")), ("alignment", .string("topLeading"))])))
        #expect(node.modifiers[1].value == .object(JSONObject([("width", .number(40))])))
        #expect(node.modifier("lineLimit") == .number(2))
        #expect(node.modifier("multilineTextAlignment") == .string("center"))
        #expect(node.modifier("fontWeight") == .string("semibold"))
        #expect(node.modifier("background") == .string("red"))
        #expect(node.modifier("containerBackground") == .string("blue"))
        #expect(node.modifier("widgetAccentable") == .bool(true))
        #expect(node.modifier("privacySensitive") == .bool(true))
        #expect(resolve(Text("x").redacted(reason: .placeholder)).modifier("redacted") == .string("placeholder"))
    }
}

extension ViewResolutionTests {
    /// Effects drawn after layout go on the wire with their anchors.
    @Test func effectsGoOnTheWire() {
        let node = resolve(
            Rectangle().rotationEffect(.degrees(90), anchor: .bottom).scaleEffect(0.5).shadow(color: .red, radius: 4, x: 1, y: 2).blur(radius: 3))
        #expect(node.modifier("rotationEffect") == .object(JSONObject([("degrees", .number(90)), ("anchorX", .number(0.5)), ("anchorY", .number(1))])))
        #expect(node.modifier("scaleEffect") == .object(JSONObject([("x", .number(0.5)), ("y", .number(0.5)), ("anchorX", .number(0.5)), ("anchorY", .number(0.5))])))
        #expect(node.modifier("shadow") == .object(JSONObject([("color", .string("red")), ("radius", .number(4)), ("x", .number(1)), ("y", .number(2))])))
        #expect(node.modifier("blur") == .object(JSONObject([("radius", .number(3))])))
        #expect(resolve(Rectangle().blendMode(.colorDodge)).modifier("blendMode") == .string("colorDodge"))
        let masked = resolve(Rectangle().mask { Text("M") })
        #expect(masked.view == "mask" && masked.children.map(\.view) == ["shape", "text"])
        #expect(resolve(Image(systemName: "star").imageScale(.large)).modifier("imageScale") == .string("large"))
    }

    @Test func symbolsProgressAndGaugesGoOnTheWire() {
        #expect(resolve(Image(systemName: "star.fill"))["systemName"] == .string("star.fill"))
        let progress = resolve(ProgressView(value: 0.25))
        #expect(progress.view == "progress")
        #expect(progress["value"] == .number(0.25))
        #expect(progress["total"] == .number(1))
        #expect(resolve(ProgressView<EmptyView, EmptyView>(value: Double?.none))["value"] == nil)
        let start = Date(timeIntervalSince1970: 100)
        let timed = resolve(ProgressView(timerInterval: start...start.addingTimeInterval(60), countsDown: false))
        #expect(timed["timerInterval"] == .array([.number(100), .number(160)]))
        let gauge = resolve(Gauge(value: 20.0, in: 0...80) { Text("Fuel") })
        #expect(gauge.view == "gauge")
        #expect(gauge["max"] == .number(80))
        #expect(gauge.children.first?["text"] == .string("Fuel"))
    }
}

/// A widget view as iOS widgets write them: a gradient container, a circle badge, a layout that
/// fits, a background view; reading the rendering mode.
struct BadgeView: View {
    @Environment(\.widgetRenderingMode) var renderingMode

    var body: some View {
        ViewThatFits(in: .horizontal) {
            HStack {
                Circle().fill(.orange).frame(width: 12, height: 12)
                Text("Unipony leads")
            }
            Text("Unipony")
        }
        .background { ContainerRelativeShape().inset(by: 4).fill(Color.gray) }
        .foregroundStyle(renderingMode == .fullColor ? Color.primary : Color.white)
        .containerBackground(
            LinearGradient(colors: [.indigo, .purple], startPoint: .top, endPoint: .bottom), for: .widget)
    }
}

extension ViewResolutionTests {
    @Test func coloursGradientsShapesAndViewThatFitsGoOnTheWire() throws {
        let node = resolve(BadgeView())
        let gradient = try #require(node.modifier("containerBackground"))
        #expect(
            gradient.jsonText
                == #"{"linearGradient":{"stops":[{"color":"indigo","location":0},{"color":"purple","location":1}],"startPoint":[0.5,0],"endPoint":[0.5,1]}}"#)
        #expect(node.modifier("foregroundStyle") == .string("primary"))
        #expect(node.view == "background")
        let fits = node.children[0]
        #expect(fits.view == "viewThatFits" && fits["axes"] == .array([.string("horizontal")]))
        #expect(fits.children.count == 2)
        #expect(
            fits.children[0].children[0].json.jsonText
                == #"{"view":"shape","shape":"circle","fill":"orange","modifiers":[{"frame":{"width":12,"height":12}}]}"#)
        #expect(node.children[1].json.jsonText == #"{"view":"shape","shape":"containerRelative","inset":4,"fill":"gray"}"#)
        // A Color and a gradient are views too: each a filled rectangle.
        #expect(resolve(Color.red).json.jsonText == #"{"view":"shape","shape":"rectangle","fill":"red"}"#)
        #expect(resolve(LinearGradient(colors: [.red, .blue], startPoint: .leading, endPoint: .trailing))["fill"]?["linearGradient"] != nil)
        #expect(resolve(RoundedRectangle(cornerRadius: 6))["cornerRadius"] == .number(6))
        #expect(Gradient(colors: [.red, .green, .blue]).stops.map(\.location) == [0, 0.5, 1])
        // Several views behind are layered, as SwiftUI's implicit ZStack does.
        let layered = resolve(Text("x").background(alignment: .bottom) { Color.red; Text("y") })
        #expect(layered.children[1].view == "zstack" && layered.children[1]["alignment"] == .string("bottom"))
        #expect(layered.children[1].children.count == 2)
    }

    @Test func viewsReadTheRenderingModeAndBackgroundFromTheEnvironment() {
        var environment = EnvironmentValues()
        #expect(environment.widgetRenderingMode == .fullColor && environment.showsWidgetContainerBackground)
        environment.widgetRenderingMode = .accented
        environment.showsWidgetContainerBackground = false
        let node = ViewResolver.root(of: BadgeView(), in: environment)
        #expect(node.modifier("foregroundStyle") == .string("white"))
    }
}
