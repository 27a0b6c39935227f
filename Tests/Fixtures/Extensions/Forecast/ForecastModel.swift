// What an app shares with its widget: a model written for Combine, as iOS code often is.
import Combine
import Foundation

final class ForecastModel: ObservableObject {
    @Published var temperature = 22

    /// The temperature, read through the model's publisher.
    func currentTemperature() -> Int {
        var current = 0
        let subscription = $temperature.first().sink { current = $0 }
        subscription.cancel()
        return current
    }
}
