import AppIntents
import GameData
import SwiftUI
import WidgetKit

/// The game's Controls, as iOS 18's Control Center would show them: a toggle that pauses the game
/// (its value read from the game's shared defaults) and a button that heals Unipony.
struct PauseGameControl: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "com.mygame.pause", provider: PausedProvider()) { paused in
            ControlWidgetToggle("Pause", isOn: paused, action: SetPausedIntent()) { isOn in
                Label(isOn ? "Paused" : "Playing", systemImage: isOn ? "pause.fill" : "play.fill")
            }
            .tint(.orange)
        }
        .displayName("Pause the game")
        .description("Pauses and resumes the game.")
    }
}

struct PausedProvider: ControlValueProvider {
    var previewValue: Bool { false }

    func currentValue() async throws -> Bool {
        SharedDefaults(suiteName: GameStore.groupIdentifier)?.bool(forKey: "paused") ?? false
    }
}

/// Sets the game paused or not: `value` is the toggle's new state.
struct SetPausedIntent: SetValueIntent {
    static var title: LocalizedStringResource { "Pause the game" }

    @Parameter(title: "Paused")
    var value: Bool

    init() {}

    func perform() async throws -> some IntentResult {
        SharedDefaults(suiteName: GameStore.groupIdentifier)?.set(value, forKey: "paused")
        return .result()
    }
}

struct HealUniponyControl: ControlWidget {
    var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: "com.mygame.heal-unipony") {
            ControlWidgetButton("Heal Unipony", systemImage: "cross.case.fill", action: HealCharacterIntent(character: "Unipony"))
        }
        .displayName("Heal Unipony")
    }
}
