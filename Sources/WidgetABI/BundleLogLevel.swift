import CWidgetABI

/// The level of a line a bundle logs through `widget_host_t.log`: the header's `widget_log_level_t`.
package enum BundleLogLevel: String, CaseIterable, Sendable {
    case debug, info, warning, error

    package var abiValue: UInt32 {
        let value: widget_log_level_t =
            switch self {
            case .debug: WIDGET_LOG_DEBUG
            case .info: WIDGET_LOG_INFO
            case .warning: WIDGET_LOG_WARNING
            case .error: WIDGET_LOG_ERROR
            }
        return UInt32(value.rawValue)
    }

    /// The level of a `widget_log_level_t`; a value the header does not define reads as an error,
    /// so that nothing a bundle says is lost below the shown level.
    package init(abiValue: UInt32) {
        self = Self.allCases.first { $0.abiValue == abiValue } ?? .error
    }
}
