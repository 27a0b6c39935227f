/// An intent that plays audio (iOS 17): its button runs it in the widget, as any intent.
public protocol AudioPlaybackIntent: AppIntent {}

/// An intent that starts or changes a Live Activity; runs as any intent here.
public protocol LiveActivityIntent: AppIntent {}

/// An intent that may continue in the app's foreground; runs to its end here.
public protocol ForegroundContinuableIntent: AppIntent {}

/// An intent that opens the app at a place; here its `perform()` runs, and the bundle's URL
/// handler is where an app would open.
public protocol OpenIntent: AppIntent {}

/// An intent that was a SiriKit custom intent, and says which (`intentClassName`).
public protocol CustomIntentMigratedAppIntent: AppIntent {
    static var intentClassName: String { get }
}

/// An intent a Shortcuts action may predict; no effect here.
public protocol PredictableIntent: AppIntent {}

/// An entity query that finds entities by a string a person types.
public protocol EntityStringQuery: EntityQuery {
    func entities(matching string: String) async throws -> [Entity]
}

/// An entity query that can list every entity: its suggestions are all of them.
public protocol EnumerableEntityQuery: EntityQuery {
    func allEntities() async throws -> [Entity]
}

extension EnumerableEntityQuery {
    public func suggestedEntities() async throws -> [Entity] { try await allEntities() }
    public func entities(for identifiers: [Entity.ID]) async throws -> [Entity] {
        try await allEntities().filter { identifiers.contains($0.id) }
    }
}

/// An entity whose values are all listed by its query, iOS 17's `IndexedEntity` and kin; no effect
/// here beyond `AppEntity`.
public protocol IndexedEntity: AppEntity {}
