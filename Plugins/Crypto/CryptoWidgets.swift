import Foundation
import WidgetKit

// The crypto-price widget of the book chapter: choose a coin (BTC, ETH or LTC) and see its price,
// refreshed every 15 minutes. To run offline, prices come from a local file in the widget's shared
// container, prices.json, which whatever fetches prices writes there (on a first run, the widget puts
// sample prices there itself).

enum Coin: String, AppEnum {
    case btc = "BTC"
    case eth = "ETH"
    case ltc = "LTC"

    static var typeDisplayRepresentation: TypeDisplayRepresentation { "Coin" }
    static var caseDisplayRepresentations: [Coin: DisplayRepresentation] {
        [.btc: "Bitcoin", .eth: "Ethereum", .ltc: "Litecoin"]
    }
}

struct SelectCoinIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource { "Select Coin" }
    static var description: IntentDescription? { "Selects the coin to show the price of." }

    @Parameter(title: "Coin", default: .btc)
    var coin: Coin

    @Parameter(title: "Decimals", default: 2, inclusiveRange: (0, 8))
    var decimals: Int

    @Parameter(title: "Show Update Time", default: true)
    var showsUpdateTime: Bool
}

/// The prices file: `{"updated": "<ISO 8601>", "prices": {"BTC": 91234.56, ...}}`.
struct PriceList: Decodable {
    let updated: Date
    let prices: [String: Double]

    static let groupIdentifier = "group.org.widgets.crypto"

    static func load() -> Result<PriceList, PriceError> {
        guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: groupIdentifier) else {
            return .failure(PriceError(message: "no shared container for \(groupIdentifier)"))
        }
        let url = container.appendingPathComponent("prices.json")
        guard let data = FileManager.default.contents(atPath: url.path) ?? startSample(at: url) else {
            return .failure(PriceError(message: "no prices: put prices.json in \(container.path)"))
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return .success(try decoder.decode(PriceList.self, from: data))
        } catch {
            return .failure(PriceError(message: "cannot read \(url.path): \(error)"))
        }
    }
}

extension PriceList {
    /// Prices to start with, until whatever fetches prices writes its own: put in the container on
    /// the first run (where there is no file yet), so the widget shows prices out of the box and
    /// the file to replace is there to see.
    static let sample = #"{"updated": "2026-11-21T09:00:00Z", "prices": {"BTC": 91234.56, "ETH": 3051.20, "LTC": 88.14}}"#

    static func startSample(at url: URL) -> Data? {
        let data = Data((sample + "\n").utf8)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".prices.json.\(UUID().uuidString)")
        if (try? data.write(to: temporary)) != nil { _ = link(temporary.path, url.path) }
        unlink(temporary.path)
        return FileManager.default.contents(atPath: url.path) ?? data
    }
}

struct PriceError: Error {
    let message: String
}

struct PriceEntry: TimelineEntry {
    let date: Date
    let coin: Coin
    let price: Double?
    let updated: Date?
    let problem: String?
    var decimals = 2
    var showsUpdateTime = true
}

struct CryptoPriceProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> PriceEntry {
        PriceEntry(date: Date(), coin: .btc, price: 90000, updated: nil, problem: nil)
    }

    func snapshot(for configuration: SelectCoinIntent, in context: Context) async -> PriceEntry {
        entry(for: configuration, at: Date())
    }

    func timeline(for configuration: SelectCoinIntent, in context: Context) async -> Timeline<PriceEntry> {
        let now = Date()
        let next = Calendar.current.date(byAdding: .minute, value: 15, to: now)!
        return Timeline(entries: [entry(for: configuration, at: now)], policy: .after(next))
    }

    func recommendations() -> [AppIntentRecommendation<SelectCoinIntent>] {
        Coin.allCases.map { coin in
            let intent = SelectCoinIntent()
            intent.coin = coin
            return AppIntentRecommendation(intent: intent, description: "\(coin.rawValue) price")
        }
    }

    private func entry(for configuration: SelectCoinIntent, at date: Date) -> PriceEntry {
        let coin = configuration.coin
        var entry: PriceEntry
        switch PriceList.load() {
        case .success(let list):
            let price = list.prices[coin.rawValue]
            entry = PriceEntry(
                date: date, coin: coin, price: price, updated: list.updated, problem: price == nil ? "no price for \(coin.rawValue)" : nil)
        case .failure(let error):
            entry = PriceEntry(date: date, coin: coin, price: nil, updated: nil, problem: error.message)
        }
        entry.decimals = min(max(configuration.decimals, 0), 8)
        entry.showsUpdateTime = configuration.showsUpdateTime
        return entry
    }
}

struct PriceView: View {
    let entry: PriceEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(entry.coin.rawValue).font(.headline)
            if let price = entry.price {
                Text("$" + price.formatted(.number.precision(.fractionLength(entry.decimals)))).font(.title)
            } else {
                Text(entry.problem ?? "no price").foregroundColor(.secondary)
            }
            if entry.showsUpdateTime, let updated = entry.updated {
                Text("as of \(ISO8601DateFormatter().string(from: updated))").font(.caption)
            }
        }
    }
}

struct CryptoPriceWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "org.widgets.crypto.price", intent: SelectCoinIntent.self, provider: CryptoPriceProvider()) { entry in
            PriceView(entry: entry)
        }
        .configurationDisplayName("Crypto Price")
        .description("Shows the price of a coin you choose")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

struct CryptoWidgets: WidgetBundle {
    var body: some Widget {
        CryptoPriceWidget()
    }
}

@c(widget_bundle_entry) public func widgetBundleEntry() -> UnsafeRawPointer {
    exportWidgetBundle(CryptoWidgets.self, name: "Crypto", version: "1.0.0", vendor: "the widgets project", appGroups: [PriceList.groupIdentifier])
}
