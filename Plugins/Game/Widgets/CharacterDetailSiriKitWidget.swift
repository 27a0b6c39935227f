import Foundation
import GameData
import WidgetKit

// The same widget in the SiriKit-style form of iOS 14 (IntentConfiguration), with the intent class,
// its custom type and the dynamic options handler written by hand where Xcode would generate them
// from an intent definition file. The namespace only keeps the names apart from the App Intents
// form in this one bundle; on its own, each would be top level.
enum SiriKitStyle {
    // What Xcode generates from the intent definition file.
    public class GameCharacter: INObject {
        public var name: String?
    }

    public class SelectCharacterIntent: INIntent {
        @Parameter(title: "Character", optionsProvider: IntentHandler.provideCharacterOptionsCollection)
        public var character: GameCharacter?
    }

    // The Intents extension's handler, as the documentation writes it.
    class IntentHandler: INExtension {
        func provideCharacterOptionsCollection(
            for intent: SelectCharacterIntent, with completion: @escaping (INObjectCollection<GameCharacter>?, Error?) -> Void
        ) {
            // Iterate the available characters, creating a GameCharacter for each one.
            let characters: [GameCharacter] = CharacterDetail.availableCharacters.map { character in
                let gameCharacter = GameCharacter(identifier: character.name, display: character.name)
                gameCharacter.name = character.name
                return gameCharacter
            }
            // Create a collection with the array of characters, and call the completion handler.
            completion(INObjectCollection(items: characters), nil)
        }
    }

    struct CharacterDetailProvider: IntentTimelineProvider {
        func placeholder(in context: Context) -> CharacterDetailEntry {
            CharacterDetailEntry(date: Date(), detail: CharacterDetail.availableCharacters.first)
        }

        func getSnapshot(for configuration: SelectCharacterIntent, in context: Context, completion: @escaping (CharacterDetailEntry) -> Void) {
            completion(CharacterDetailEntry(date: Date(), detail: CharacterDetail.lookup(configuration.character?.name)))
        }

        func getTimeline(
            for configuration: SelectCharacterIntent, in context: Context, completion: @escaping (Timeline<CharacterDetailEntry>) -> Void
        ) {
            // Access the customized properties of the intent.
            let characterDetail = CharacterDetail.lookup(configuration.character?.name)
            // Construct a timeline entry for the current date, and include the character details.
            let entry = CharacterDetailEntry(date: Date(), detail: characterDetail)
            // Create the timeline and call the completion handler. The .never reload policy indicates
            // that the containing app will use WidgetCenter methods to reload the widget's timeline
            // when the details change.
            completion(Timeline(entries: [entry], policy: .never))
        }

        // The preconfigured widgets offered where there is no configuration screen (watchOS on
        // iOS; the CLI's `widgets recommendations` here): one per character.
        func recommendations() -> [IntentRecommendation<SelectCharacterIntent>] {
            CharacterDetail.availableCharacters.map { character in
                let intent = SelectCharacterIntent()
                let gameCharacter = GameCharacter(identifier: character.name, display: character.name)
                gameCharacter.name = character.name
                intent.character = gameCharacter
                return IntentRecommendation(intent: intent, description: character.name)
            }
        }
    }

    struct CharacterDetailWidget: Widget {
        var body: some WidgetConfiguration {
            IntentConfiguration(
                kind: "com.mygame.character-detail-sirikit", intent: SelectCharacterIntent.self, provider: CharacterDetailProvider()
            ) { entry in
                CharacterDetailView(entry: entry)
            }
            .configurationDisplayName("Character Details (SiriKit)")
            .description("Displays a character's health and other details")
            .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
        }
    }
}
