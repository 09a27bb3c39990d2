# Soft delete with deleted_at, and the updated_since change feed (tombstones included).
module SoftDeletable
  extend ActiveSupport::Concern

  included do
    scope :live, -> { where(deleted_at: nil) }
    scope :updated_since, ->(time) { where(arel_table[:updated_at].gt(time)) }
    scope :in_feed_order, -> { order(:updated_at, :id) }
  end

  # Marks the record deleted; a stale lock_version raises ActiveRecord::StaleObjectError.
  def soft_delete!
    update!(deleted_at: Time.current)
  end

  def deleted?
    deleted_at.present?
  end
end
