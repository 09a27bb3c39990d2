/// The order in which a pulled change meets the recognisers of this store's own writes (pure):
/// each one either takes the change (nothing after it sees it) or lets it go on.
///
/// | step | takes the change when | why here |
/// |---|---|---|
/// | ``Step/createAnswer`` | it is the record a create whose answer was lost made, on a server that assigns ids (`SyncEngine.adoptAsCreateAnswer`) | first: the record has another id than the local object, so no later step would find the object |
/// | ``Step/lateDelivery`` | it is a late delivery of a create this store watches (``LateDeliveryRule``), or a tombstone of one | before the usual way, which would store it as another client's record |
/// | ``Step/remoteChange`` | always: a new object is stored, anything else as ``RemoteChangeRule`` says | last |
///
/// A step whose watch list is empty in a transaction is left out (an ordinary refresh meets
/// only ``Step/remoteChange``). A change that meets a local edit then goes through
/// ``localEditSteps(tombstoneAgrees:)``.
///
/// | local-edit step | takes the change when |
/// |---|---|
/// | ``LocalEditStep/sentWrite`` | it is the write this store sent whose answer was lost (``LostAnswerRule``) |
/// | ``LocalEditStep/agreeingTombstone`` | it is a tombstone and the local edit is a delete, or a create from no server copy |
/// | ``LocalEditStep/lateDeliveryConflict`` | the server copy is a late delivery under the local edit (``LateDeliveryRule/supersede``) |
/// | ``LocalEditStep/conflict`` | always: the collection's conflict policy settles it |
enum PulledChangeRule {
    /// A recogniser every pulled change may meet.
    enum Step: Sendable, Equatable, CaseIterable {
        /// The answer to a create whose answer was lost (server-assigned ids).
        case createAnswer
        /// A late delivery of a watched create.
        case lateDelivery
        /// The usual way.
        case remoteChange
    }

    /// A recogniser a change that meets a local edit may meet.
    enum LocalEditStep: Sendable, Equatable, CaseIterable {
        /// Our own write whose answer was lost, coming back.
        case sentWrite
        /// A tombstone the local edit agrees with.
        case agreeingTombstone
        /// A late delivery under the local edit.
        case lateDeliveryConflict
        /// A conflict for the policy.
        case conflict
    }

    /// The steps of a pulled change, in order, given whether the collection has creates whose
    /// answer was lost (server-assigned ids) and creates watched for a late delivery.
    static func steps(unansweredCreates: Bool, watchedCreates: Bool) -> [Step] {
        switch (unansweredCreates, watchedCreates) {
        case (false, false): [.remoteChange]
        case (true, false): [.createAnswer, .remoteChange]
        case (false, true): [.lateDelivery, .remoteChange]
        case (true, true): [.createAnswer, .lateDelivery, .remoteChange]
        }
    }

    /// The steps of a change that meets a local edit, in order; `tombstoneAgrees` as
    /// ``RemoteChangeRule/meetLocalEdit(tombstoneAgrees:)`` says.
    static func localEditSteps(tombstoneAgrees: Bool) -> [LocalEditStep] {
        tombstoneAgrees ? [.sentWrite, .agreeingTombstone, .lateDeliveryConflict, .conflict]
            : [.sentWrite, .lateDeliveryConflict, .conflict]
    }
}
