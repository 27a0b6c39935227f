import FoundationEssentials

/// How many reloads an instance gets, as iOS gives each widget a daily budget.
///
/// Budgeted reloads (a policy coming due, a `WidgetCenter` request from an app in the background) are
/// at most `reloadsPerDay` in any rolling 24 hours, and at least `minimumInterval` after the
/// instance's previous reload of any kind. A reload the budget does not allow yet is deferred to the
/// earliest time it does, never dropped. `ReloadReason.isBudgeted` lists the exemptions.
public struct ReloadBudget: Sendable, Equatable {
    public var reloadsPerDay: Int
    public var minimumInterval: TimeInterval

    public init(reloadsPerDay: Int, minimumInterval: TimeInterval) {
        self.reloadsPerDay = max(1, reloadsPerDay)
        self.minimumInterval = max(0, minimumInterval)
    }

    /// 50 reloads in any 24 hours, 5 minutes apart: iOS documents 40 to 70 a day for a frequently
    /// viewed widget, which works out to one every 15 to 60 minutes.
    public static let standard = ReloadBudget(reloadsPerDay: 50, minimumInterval: 5 * 60)
    /// No daily limit, as WidgetKit has under the debugger. One second between reloads remains, so a
    /// timeline whose `.atEnd` is already past cannot spin its provider.
    public static let development = ReloadBudget(reloadsPerDay: .max, minimumInterval: 1)

    /// The rolling window the daily count is kept over.
    public static let window: TimeInterval = 24 * 60 * 60
}

/// Why an instance's timeline is reloaded.
public enum ReloadReason: String, Sendable, CaseIterable {
    /// The instance's first timeline (it was added, or the host started).
    case added
    /// Its timeline's reload policy came due (`.atEnd`, `.after(date)`).
    case policy
    /// An app or the shell asked (`WidgetCenter`, `widgets reload`).
    case requested
    /// An app in the foreground asked: on iOS its reloads are not counted.
    case foreground
    /// An intent ran in the widget (`Button(intent:)`, `Toggle`): reloaded once, at once.
    case interaction
    /// Its configuration changed.
    case configuration
    /// Its last timeline request failed; retried with backoff.
    case retry
    /// Its bundle was missing and is back.
    case bundleReturned

    /// Whether the reload counts against the instance's budget and waits for its minimum interval.
    public var isBudgeted: Bool { self == .policy || self == .requested }
}
