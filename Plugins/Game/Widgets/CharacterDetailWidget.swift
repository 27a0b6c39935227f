import Foundation
import GameData
import WidgetKit

// The documentation's character-detail widget, in the App Intents form: the user picks a character,
// stored by its identifier and resolved through CharacterQuery before each request.

struct CharacterEntity: AppEntity {
    let id: String
    let avatar: String

    static var typeDisplayRepresentation: TypeDisplayRepresentation { "Character" }
    static let defaultQuery = CharacterQuery()

    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(avatar) \(id)") }

    init(_ detail: CharacterDetail) {
        id = detail.name
        avatar = detail.avatar
    }
}

struct CharacterQuery: EntityQuery {
    func entities(for identifiers: [CharacterEntity.ID]) async throws -> [CharacterEntity] {
        CharacterDetail.availableCharacters.filter { identifiers.contains($0.name) }.map(CharacterEntity.init)
    }

    func suggestedEntities() async throws -> [CharacterEntity] {
        CharacterDetail.availableCharacters.map(CharacterEntity.init)
    }

    func defaultResult() async -> CharacterEntity? {
        try? await suggestedEntities().first
    }
}

struct SelectCharacterIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource { "Select Character" }
    static var description: IntentDescription? { "Selects the character to display information for." }

    @Parameter(title: "Character")
    var character: CharacterEntity?
}

struct CharacterDetailEntry: TimelineEntry {
    let date: Date
    let detail: CharacterDetail?
}

struct CharacterDetailProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> CharacterDetailEntry {
        CharacterDetailEntry(date: Date(), detail: CharacterDetail.availableCharacters.first)
    }

    func snapshot(for configuration: SelectCharacterIntent, in context: Context) async -> CharacterDetailEntry {
        CharacterDetailEntry(date: Date(), detail: CharacterDetail.lookup(configuration.character?.id))
    }

    func timeline(for configuration: SelectCharacterIntent, in context: Context) async -> Timeline<CharacterDetailEntry> {
        // .never: a new timeline comes only when asked for (on iOS, by the app through WidgetCenter).
        let entry = CharacterDetailEntry(date: Date(), detail: CharacterDetail.lookup(configuration.character?.id))
        return Timeline(entries: [entry], policy: .never)
    }

    func recommendations() -> [AppIntentRecommendation<SelectCharacterIntent>] {
        CharacterDetail.availableCharacters.map { detail in
            let intent = SelectCharacterIntent()
            intent.character = CharacterEntity(detail)
            return AppIntentRecommendation(intent: intent, description: detail.name)
        }
    }
}

struct CharacterDetailView: View {
    let entry: CharacterDetailEntry

    var body: some View {
        if let detail = entry.detail {
            VStack(alignment: .leading, spacing: 4) {
                Text("\(detail.avatar) \(detail.name)").font(.headline)
                Text(detail.heroType).font(.caption).foregroundColor(.secondary)
                Text(String(repeating: "█", count: detail.healthTenths) + String(repeating: "░", count: 10 - detail.healthTenths))
                Text("Health \(Int((detail.healthLevel * 100).rounded()))%").foregroundColor(detail.healthLevel < 0.5 ? .red : .green)
                if detail.healthTenths < 10 {
                    Button("Heal +10", intent: HealCharacterIntent(character: detail.name))
                }
            }
            .widgetURL(GameLinks.character(detail.name))
        } else {
            Text("Choose a character").foregroundColor(.secondary)
        }
    }
}

extension CharacterDetail {
    /// Health in tenths, 0 to 10 whatever the shared file says.
    var healthTenths: Int { min(10, max(0, Int((healthLevel * 10).rounded()))) }
}

struct CharacterDetailWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "com.mygame.character-detail", intent: SelectCharacterIntent.self, provider: CharacterDetailProvider()) {
            entry in
            CharacterDetailView(entry: entry)
        }
        .configurationDisplayName("Character Details")
        .description("Displays a character's health and other details")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}

/// The widget's button: heals the character in the game's shared state, then the widget reloads.
struct HealCharacterIntent: AppIntent {
    static var title: LocalizedStringResource { "Heal Character" }

    @Parameter(title: "Character")
    var character: String

    init() {}

    init(character: String) {
        self.character = character
    }

    func perform() async throws -> some IntentResult {
        try GameStore.heal(character, by: 10)
        return .result()
    }
}
