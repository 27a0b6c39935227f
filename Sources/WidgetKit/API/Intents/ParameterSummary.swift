
/// How an intent's parameters read in a configuration screen (`static var parameterSummary`). The
/// host's configuration screen lists every parameter; the summary is kept for the form's title.
public protocol ParameterSummary: Sendable {}

/// No summary: the parameters are listed in order.
public struct _NoParameterSummary: ParameterSummary {
    public init() {}
}

/// A summary: a sentence with parameters in it, or the parameters listed.
///
///     static var parameterSummary: some ParameterSummary {
///         Summary("Show \(\.$coin)") { \.$decimals }
///     }
public struct Summary<Intent: AppIntent>: ParameterSummary {
    public init() {}
    public init(_ formatString: ParameterSummaryString<Intent>) {}
    public init(_ formatString: ParameterSummaryString<Intent>, @ParameterSummaryBuilder<Intent> table: () -> some ParameterSummary) {}
    public init(@ParameterSummaryBuilder<Intent> table: () -> some ParameterSummary) {}
}

/// A summary that depends on a parameter's value (`When(\.$kind, .equalTo, .gradient) { … } otherwise: { … }`).
public struct When<Intent: AppIntent>: ParameterSummary {
    public init<Value>(
        _ parameter: KeyPath<Intent, IntentParameter<Value>>, _ comparison: ParameterSummaryComparison, _ value: Value,
        @ParameterSummaryBuilder<Intent> _ then: () -> some ParameterSummary,
        @ParameterSummaryBuilder<Intent> otherwise: () -> some ParameterSummary
    ) {}

    public init<Value>(
        _ parameter: KeyPath<Intent, IntentParameter<Value>>, _ comparison: ParameterSummaryComparison, _ value: Value,
        @ParameterSummaryBuilder<Intent> _ then: () -> some ParameterSummary
    ) {}

    public init(
        _ parameter: KeyPath<Intent, IntentParameter<Bool>>, @ParameterSummaryBuilder<Intent> _ then: () -> some ParameterSummary,
        @ParameterSummaryBuilder<Intent> otherwise: () -> some ParameterSummary
    ) {}
}

/// How `When` compares a parameter's value.
public enum ParameterSummaryComparison: Sendable {
    case equalTo, notEqualTo, lessThan, lessThanOrEqualTo, greaterThan, greaterThanOrEqualTo, hasAnyValue, hasNoValue, contains
    case oneOf, notOneOf
}

/// A summary sentence, with parameters interpolated by key path (`"Show \(\.$coin)"`).
public struct ParameterSummaryString<Intent: AppIntent>: ExpressibleByStringInterpolation, Sendable {
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: StringInterpolation) {}

    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) {}
        public mutating func appendInterpolation<Value>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) {}
    }
}

/// A list of parameters in a summary: `\.$coin` entries, `When`s and `Summary`s.
public struct _ParameterList: ParameterSummary {}

/// `Switch(\.$kind) { Case(.a) { … } DefaultCase { … } }`: a summary per value of a parameter.
public struct Switch<Intent: AppIntent>: ParameterSummary {
    public init<Value>(_ parameter: KeyPath<Intent, IntentParameter<Value>>, @_ParameterSummaryCaseBuilder<Intent> _ cases: () -> _ParameterSummaryCases<Intent>) {}
}

/// One value's summary inside a `Switch`.
public struct Case<Intent: AppIntent>: Sendable {
    public init<Value>(_ value: Value, @ParameterSummaryBuilder<Intent> _ summary: () -> some ParameterSummary) {}
}

/// The summary for every value no `Case` names.
public struct DefaultCase<Intent: AppIntent>: Sendable {
    public init(@ParameterSummaryBuilder<Intent> _ summary: () -> some ParameterSummary) {}
}

public struct _ParameterSummaryCases<Intent: AppIntent>: Sendable {}

@resultBuilder
public enum _ParameterSummaryCaseBuilder<Intent: AppIntent> {
    public static func buildExpression(_ item: Case<Intent>) -> _ParameterSummaryCases<Intent> { _ParameterSummaryCases() }
    public static func buildExpression(_ item: DefaultCase<Intent>) -> _ParameterSummaryCases<Intent> { _ParameterSummaryCases() }
    public static func buildBlock(_ items: _ParameterSummaryCases<Intent>...) -> _ParameterSummaryCases<Intent> { _ParameterSummaryCases() }
}

/// Builds a summary's contents. Each expression names its intent's type through this builder's
/// `Intent`, which is what lets `\.$coin` and `Summary { … }` be written without a type.
@resultBuilder
public enum ParameterSummaryBuilder<Intent: AppIntent> {
    public static func buildExpression<Value>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) -> _ParameterList { _ParameterList() }
    public static func buildExpression(_ summary: Summary<Intent>) -> Summary<Intent> { summary }
    public static func buildExpression(_ summary: When<Intent>) -> When<Intent> { summary }
    public static func buildExpression(_ summary: Switch<Intent>) -> Switch<Intent> { summary }
    public static func buildBlock() -> _ParameterList { _ParameterList() }
    public static func buildBlock<S: ParameterSummary>(_ summary: S) -> S { summary }
    public static func buildBlock<each S: ParameterSummary>(_ summaries: repeat each S) -> _ParameterList { _ParameterList() }
    public static func buildOptional<S: ParameterSummary>(_ summary: S?) -> _ParameterList { _ParameterList() }
    public static func buildEither<S: ParameterSummary>(first summary: S) -> _ParameterList { _ParameterList() }
    public static func buildEither<S: ParameterSummary>(second summary: S) -> _ParameterList { _ParameterList() }
}
