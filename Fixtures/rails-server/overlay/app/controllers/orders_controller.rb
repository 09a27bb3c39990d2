# Orders, flat (/orders) and nested under their customer (/customers/:customer_id/orders).
class OrdersController < ApplicationController
  include RestResource
  before_action :set_customer, only: [:index, :create]
  before_action :set_record, only: [:show, :update, :destroy]
  before_action :check_if_match, only: [:update, :destroy]

  private

  def model = Order

  def set_customer
    @customer = Customer.live.find(params[:customer_id]) if params[:customer_id].present?
  end

  # The scaffold does not scope a nested index: only this customer's orders.
  def index_scope
    @customer ? Order.where(customer_id: @customer.id) : Order.all
  end

  def filter_fields
    %w[customer_id quantity note]
  end

  def assign_parent(record)
    record.customer_id = @customer.id if @customer
  end

  def record_params
    params.require(:order).permit(:customer_id, :quantity, :note, :lock_version)
  end
end
