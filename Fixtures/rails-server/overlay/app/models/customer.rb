class Customer < ApplicationRecord
  include SoftDeletable
  has_many :orders
  validates :name, presence: true
  validates :email, format: { with: /\A[^@\s]+@[^@\s]+\z/, message: "is not an email address" }, allow_blank: true
end
