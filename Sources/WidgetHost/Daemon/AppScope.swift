import WidgetWire

/// Which bundles an app's `WidgetCenter.reloadAllTimelines()` reaches, as iOS limits it to the app's
/// own extension: those whose identifier is the app's or starts with it (`org.example.trips` owns
/// `org.example.trips.widget`), and those that share an app group with it. An app that says
/// neither (no bundle identifier, no group used through the SDK) reaches every bundle, as before
/// apps said who they are.
struct AppScope: Equatable {
    let identifier: String?
    let groups: Set<String>

    /// The scope a reload request names (`"app": {"identifier": ..., "groups": [...]}`); nil when it names none.
    init?(_ json: JSONValue?) {
        let identifier = json?["identifier"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let groups = Set((json?["groups"]?.arrayValue ?? []).compactMap(\.stringValue).filter { !$0.isEmpty })
        guard identifier != nil || !groups.isEmpty else { return nil }
        self.identifier = identifier
        self.groups = groups
    }

    func owns(_ bundle: LoadedBundle) -> Bool {
        if let identifier, let own = bundle.identifier, own == identifier || own.hasPrefix(identifier + ".") { return true }
        return !groups.isDisjoint(with: bundle.appGroups)
    }
}
