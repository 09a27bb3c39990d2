class Order < ApplicationRecord
  include SoftDeletable
  belongs_to :customer
  validates :quantity, presence: true, numericality: { only_integer: true, greater_than: 0 }
end
