import WidgetWire

/// Which bundles an app's `WidgetCenter.reloadAllTimelines()` reaches, as iOS limits it to the app's
/// own extension: those whose identifier is the app's or starts with it (`org.example.trips` owns
/// `org.example.trips.widget`), and those that share an app group with it. An app that says
/// neither (no bundle identifier, no group used through the SDK) reaches every bundle, as before
/// apps said who they are.
struct AppScope: Equatable {
    let identifier: String?
    let groups: Set<String>

    /// The scope of the app a reload request names.
    init(_ app: ControlRequest.AppIdentity) {
        identifier = app.identifier
        groups = Set(app.groups)
    }

    func owns(_ bundle: LoadedBundle) -> Bool {
        if let identifier, let own = bundle.identifier, own == identifier || own.hasPrefix(identifier + ".") { return true }
        return !groups.isDisjoint(with: bundle.appGroups)
    }
}
