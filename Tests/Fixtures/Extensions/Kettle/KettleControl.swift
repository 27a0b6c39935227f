import AppIntents
import SwiftUI
import WidgetKit

// A Control in the shape Xcode 16's template gives one (its own content): an intent-configured
// toggle whose value provider answers with a struct, and the SetValueIntent it performs.
struct KettleControl: ControlWidget {
    static let kind: String = "local.widgets.Kettle.control"

    var body: some ControlWidgetConfiguration {
        AppIntentControlConfiguration(
            kind: Self.kind,
            provider: Provider()
        ) { value in
            ControlWidgetToggle(
                "Boil",
                isOn: value.isBoiling,
                action: BoilIntent(value.name)
            ) { isBoiling in
                Label(isBoiling ? "Boiling" : "Cold", systemImage: "flame")
            }
        }
        .displayName("Kettle")
        .description("Boils the kettle.")
    }
}

extension KettleControl {
    struct Value {
        var isBoiling: Bool
        var name: String
    }

    struct Provider: AppIntentControlValueProvider {
        func previewValue(configuration: KettleConfiguration) -> Value {
            KettleControl.Value(isBoiling: false, name: configuration.kettleName)
        }

        func currentValue(configuration: KettleConfiguration) async throws -> Value {
            KettleControl.Value(isBoiling: configuration.kettleName == "Office", name: configuration.kettleName)
        }
    }
}

struct KettleConfiguration: ControlConfigurationIntent {
    static let title: LocalizedStringResource = "Kettle Configuration"

    @Parameter(title: "Kettle Name", default: "Office")
    var kettleName: String
}

struct BoilIntent: SetValueIntent {
    static let title: LocalizedStringResource = "Boil the kettle"

    @Parameter(title: "Kettle Name")
    var name: String

    @Parameter(title: "Kettle is boiling")
    var value: Bool

    init() {}

    init(_ name: String) {
        self.name = name
    }

    func perform() async throws -> some IntentResult {
        return .result()
    }
}
