import Foundation
import Testing
@testable import WidgetKit
import WidgetWire

// Parameters of every supported type, as an author declares them.
enum Unit: String, AppEnum {
    case metric, imperial
    static var typeDisplayRepresentation: TypeDisplayRepresentation { "Unit" }
    static var caseDisplayRepresentations: [Unit: DisplayRepresentation] { [.metric: "Metric", .imperial: "Imperial"] }
}

struct City: AppEntity {
    let id: String
    static var typeDisplayRepresentation: TypeDisplayRepresentation { "City" }
    static let defaultQuery = CityQuery()
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(id)", subtitle: "city") }
}

struct CityQuery: EntityQuery {
    static let known = ["Oslo", "Lima"]
    func entities(for identifiers: [String]) async throws -> [City] { identifiers.filter(Self.known.contains).map(City.init) }
    func suggestedEntities() async throws -> [City] { Self.known.map(City.init) }
    func defaultResult() async -> City? { City(id: "Lima") }
}

struct Symbols: DynamicOptionsProvider {
    func results() async throws -> [String] { ["AAPL", "MSFT"] }
}

struct WeatherIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource { "Weather" }

    @Parameter(title: "City") var city: City?
    @Parameter(title: "Unit", default: .metric) var unit: Unit
    @Parameter(title: "Days", default: 3) var days: Int
    @Parameter(title: "Scale", default: 1.5) var scale: Double
    @Parameter(title: "Alerts", default: false) var alerts: Bool
    @Parameter(title: "From") var from: Date?
    @Parameter(title: "Source") var source: URL?
    @Parameter(title: "Label") var label: String
    @Parameter(title: "Symbol", optionsProvider: Symbols()) var symbol: String?
}

@Suite struct IntentParameterTests {
    @Test func settingAParameterOfALetIntentWorksAsOnIOS() {
        let intent = WeatherIntent()
        intent.unit = .imperial
        intent.days = 5
        #expect(intent.unit == .imperial && intent.days == 5)
        #expect(intent.city == nil, "an optional parameter with no value is nil")
    }

    @Test func theSchemaListsParametersInDeclarationOrderWithTheirTraits() {
        let schema = IntentParameters.schema(of: WeatherIntent(), title: "Weather", description: "")
        #expect(schema.parameters.map(\.name) == ["city", "unit", "days", "scale", "alerts", "from", "source", "label", "symbol"])
        #expect(schema.parameters.map(\.type) == [.entity, .enumeration, .integer, .double, .boolean, .date, .url, .string, .string])
        #expect(schema.parameters.map(\.isOptional) == [true, false, false, false, false, true, true, false, true])
        #expect(schema.parameters.map(\.defaultValue) == [nil, .string("metric"), .number(3), .number(1.5), .bool(false), nil, nil, nil, nil])
        #expect(schema.parameters.map(\.hasDynamicOptions) == [true, false, false, false, false, false, false, false, true])
        #expect(schema.parameters[1].cases == [ParameterOption(value: .string("metric"), title: "Metric"), ParameterOption(value: .string("imperial"), title: "Imperial")])
        #expect(schema.parameters[0].typeName == "City")
    }

    @Test func aConfigurationFillsTheIntentResolvingEntitiesByIdentifier() async throws {
        let intent = WeatherIntent()
        try await IntentParameters.fill(
            intent,
            from: #"{"city":"Oslo","unit":"imperial","days":7,"scale":2,"alerts":true,"from":"2026-11-21T09:30:00Z","source":"https://example.com","label":"hi","symbol":"MSFT"}"#)
        #expect(intent.city?.id == "Oslo")
        #expect(intent.unit == .imperial && intent.days == 7 && intent.scale == 2 && intent.alerts)
        #expect(intent.from == Date(timeIntervalSince1970: 1_795_253_400))
        #expect(intent.source == URL(string: "https://example.com"))
        #expect(intent.label == "hi" && intent.symbol == "MSFT")
        #expect(
            IntentParameters.configuration(of: intent)["city"] == .string("Oslo"), "an entity is written back as its identifier")
    }

    @Test func omittedParametersTakeTheirDefaultsAndARequiredOneWithoutIsAnError() async throws {
        let intent = WeatherIntent()
        let missing = await #expect(throws: _ParameterFailure.self) { try await IntentParameters.fill(intent, from: "{}") }
        #expect(missing?.description == #"parameter "label": it needs a value and has none"#)
        try await IntentParameters.fill(intent, from: #"{"label":"x"}"#)
        #expect(intent.unit == .metric && intent.days == 3 && intent.city == nil)
    }

    @Test func badValuesAndUnresolvableEntitiesNameTheParameter() async {
        func failure(_ configuration: String) async -> String {
            do {
                try await IntentParameters.fill(WeatherIntent(), from: configuration)
                return "filled"
            } catch {
                return error.description
            }
        }
        #expect(await failure(#"{"label":"x","city":"Paris"}"#) == #"parameter "city": no City has the identifier "Paris" any more (entities(for:) returned none)"#)
        #expect(await failure(#"{"label":"x","unit":"kelvin"}"#) == #"parameter "unit": "kelvin" is not one of "metric", "imperial""#)
        #expect(await failure(#"{"label":"x","days":"many"}"#) == #"parameter "days": expected an integer, got "many""#)
        #expect(await failure("[1]") == "the configuration is not a JSON object")
    }

    @Test func aListParameterHoldsValuesOfItsTypeResolvedAndCounted() async throws {
        struct Trip: WidgetConfigurationIntent {
            static var title: LocalizedStringResource { "Trip" }
            @Parameter(title: "Cities", size: 2) var cities: [City]
            @Parameter(title: "Units", size: [.systemSmall: 1, .systemLarge: 3]) var units: [Unit]?
        }
        let schema = IntentParameters.schema(of: Trip(), title: "Trip", description: "").parameters
        #expect(schema[0].isList && schema[0].type == .entity && schema[0].maximumCount == 2 && schema[0].hasDynamicOptions)
        #expect(schema[1].isList && schema[1].isOptional && schema[1].maximumCount == 3 && schema[1].cases.count == 2)
        let trip = Trip()
        try await IntentParameters.fill(trip, from: #"{"cities":["Oslo","Lima"],"units":["imperial"]}"#)
        #expect(trip.cities.map(\.id) == ["Oslo", "Lima"] && trip.units == [.imperial])
        #expect(IntentParameters.configuration(of: trip)["cities"] == .array([.string("Oslo"), .string("Lima")]))
        await #expect(throws: _ParameterFailure.self) { try await IntentParameters.fill(Trip(), from: #"{"cities":["Oslo","Lima","Oslo"]}"#) }
        await #expect(throws: _ParameterFailure.self) { try await IntentParameters.fill(Trip(), from: #"{"cities":"Oslo"}"#) }
        // Its choices are its elements'.
        let options = try await IntentParameters.options(of: Trip(), parameter: "cities")
        #expect(options.options.map(\.value) == [.string("Oslo"), .string("Lima")])
        #expect(options.defaultValue == .array([.string("Lima")]))
    }

    @Test func aConfigurationOnItsWayIsFilledAsFarAsItGoes() async throws {
        // "unit" cannot take its value and "label" (required) has none yet; the parameters after
        // the first are still filled.
        let intent = WeatherIntent()
        try await IntentParameters.fill(intent, from: #"{"unit":"kelvin","days":5,"source":"https://example.com"}"#, partially: true)
        #expect(intent.days == 5 && intent.source == URL(string: "https://example.com"))
        await #expect(throws: _ParameterFailure.self) { try await IntentParameters.fill(WeatherIntent(), from: #"{"days":5}"#) }
    }

    @Test func anEnumCaseReadsAsItsTitle() {
        #expect(Unit.imperial.localizedStringResource == "Imperial")
        #expect(String(localized: Unit.metric.localizedStringResource) == "Metric")
    }

    @Test func aRangedNumberSaysItsRangeAndRefusesValuesOutsideIt() async throws {
        struct Goal: WidgetConfigurationIntent {
            static var title: LocalizedStringResource { "Goal" }
            @Parameter(title: "Steps", default: 8000, inclusiveRange: (1000, 50000)) var steps: Int
            @Parameter(title: "Pace", inclusiveRange: (0.5, 2.5)) var pace: Double
            @Parameter(title: "Name", requestValueDialog: "Whose goal?") var name: String?
        }
        let schema = IntentParameters.schema(of: Goal(), title: "Goal", description: "").parameters
        #expect(schema[0].range == 1000...50000 && schema[0].defaultValue == .number(8000))
        #expect(schema[1].range == 0.5...2.5)
        #expect(schema[2].range == nil && schema[2].isOptional)
        let intent = Goal()
        await #expect(throws: _ParameterFailure.self) { try await IntentParameters.fill(intent, from: #"{"steps":999,"pace":1}"#) }
        try await IntentParameters.fill(intent, from: #"{"steps":50000,"pace":2.5}"#)
        #expect(intent.steps == 50000 && intent.pace == 2.5)
    }

    @Test func optionsComeFromTheQueryTheProviderOrTheCases() async throws {
        let intent = WeatherIntent()
        let cities = try await IntentParameters.options(of: intent, parameter: "city")
        #expect(cities.options == [ParameterOption(value: .string("Oslo"), title: "Oslo", subtitle: "city"), ParameterOption(value: .string("Lima"), title: "Lima", subtitle: "city")])
        #expect(cities.defaultValue == .string("Lima"))
        #expect(try await IntentParameters.options(of: intent, parameter: "symbol").options.map(\.value) == [.string("AAPL"), .string("MSFT")])
        #expect(try await IntentParameters.options(of: intent, parameter: "unit").defaultValue == .string("metric"))
        await #expect(throws: _ParameterFailure.self) { try await IntentParameters.options(of: intent, parameter: "nope") }
    }
}

struct UnitIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource { "Unit" }
    @Parameter(title: "Unit", default: .metric) var unit: Unit?
}

final class ThingIntent: INIntent {
    @Parameter(title: "Thing") var thing: INObject?
}

@Suite struct IntentParameterEdgeTests {
    @Test func anOptionalParameterWithADefaultCanBeClearedByNull() async throws {
        let cleared = UnitIntent()
        try await IntentParameters.fill(cleared, from: #"{"unit":null}"#)
        #expect(cleared.unit == nil)
        #expect(IntentParameters.configuration(of: cleared)["unit"] == .null)
        let omitted = UnitIntent()
        try await IntentParameters.fill(omitted, from: "{}")
        #expect(omitted.unit == .metric, "a parameter left out takes its default")
    }

    @Test func aSiriKitObjectWithoutAHandlerTakesAnyIdentifierAndOffersNoDynamicOptions() async throws {
        let schema = IntentParameters.schema(of: ThingIntent(), title: "Thing", description: "")
        #expect(schema.parameters.map(\.hasDynamicOptions) == [false])
        let intent = ThingIntent()
        try await IntentParameters.fill(intent, from: #"{"thing":"x-1"}"#)
        #expect(intent.thing?.identifier == "x-1")
    }
}
