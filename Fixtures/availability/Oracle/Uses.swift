// Uses of Declarations.swift in every kind of availability context. The oracle test compiles
// this for each Apple target at the package's floors and requires the check to report exactly
// the uses the compiler rejects there, no more, no fewer.

func unguarded() {
    newest()
    _ = Live()
    _ = Live.make().computed
    longForm()
    macOnly()
    iosPointFour()
    iosOld()
    notOnIOS()
    Plain().fromExtension()
    _ = Member().newer
    Member().newest()
}

func queries() {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        newest()
    }
    if #available(macOS 15, *) {
        newest()
    } else {
        macOnly()
    }
    // `#available(iOS …)` is no visionOS query: on visionOS it is the `*` case.
    if #available(iOS 18, *) {
        newest()
    }
    guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else {
        _ = Live()
        return
    }
    _ = Live()
    newest()
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        let later = { newest() }
        later()
    }
}

func unavailableQueries() {
    if #unavailable(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2) {
        _ = Box()
    } else {
        newest()
    }
    guard #unavailable(macOS 14, iOS 17, tvOS 17, watchOS 10) else {
        _ = Live()
        return
    }
    _ = Live()
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func annotatedFunction() {
    newest()
    _ = Live()
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct AnnotatedType {
    func use() -> Live { Live() }
    func tooNew() { newest() }
    struct Nested {
        func deeper() -> Live { Live.make() }
    }
}

struct Holder {}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Holder {
    func use() { _ = Live() }
    var live: Live { Live() }
}

// The long form on a context; visionOS takes the iOS one.
@available(iOS, introduced: 17)
func iosContext() {
    _ = Live()
}

@available(iOS, unavailable)
func neverOnIOS() {
    notOnIOS()
    _ = Live()
}

func localFunction() {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func inner() { newest() }
    _ = Box()
}

func closures() {
    let early = { newest() }
    early()
}

struct Conformer: NewProtocol {}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct LaterConformer: NewProtocol {}

struct Later {}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Later: NewProtocol {}

func requirements<C: Counting>(_ counter: C) {
    _ = counter.count()
    _ = Counter().count()
    _ = counter.onlyNew()
}

func conditional() {
    #if os(macOS) || os(Linux)
    macOnly()
    #endif
    #if os(Linux)
    newest()
    #elseif os(iOS)
    _ = Box()
    #endif
}

func properties() {
    let member = Member()
    _ = member.newer
}

class Subclass: NewClass {}

struct LaterAgain {}

extension LaterAgain: Requirement {
    func required() {}
}

func constraints<T: NewProtocol>(_ value: T) {}

func existentials(_ value: any NewProtocol) {}

func whereClause<T>(_ value: T) where T: NewProtocol {}

func jobs(_ job: Job) {
    job.run()
    job.runFromExtension()
    _ = Job.Kind()
    makeJob().run()
    let made = makeJob()
    made.runFromExtension()
}

func requirementThroughGeneric<R: Requirement>(_ value: R) {
    value.required()
    LaterAgain().required()
}

extension Live {
    func extendedWithoutAvailability() {}
}
