import AvailabilityFixtureLibrary

// A library's own `@available` type used from unannotated code, as the tests use `LiveQuery`.
// Its members are not reported again: a use of one needs a value of the type, whose mention is.

func unannotated() -> Int {
    // expect: LiveModel needs macOS 14, iOS 17, tvOS 17, watchOS 10
    let model = LiveModel()
    return model.count
}

// expect: LiveModel needs macOS 14, iOS 17, tvOS 17, watchOS 10
func parameter(_ model: LiveModel) -> Int { model.count }

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
func annotated() -> Int { LiveModel().count }

struct Screen {}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Screen {
    var model: LiveModel { LiveModel() }
}
