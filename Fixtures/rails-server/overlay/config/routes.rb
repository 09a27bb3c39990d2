# Routes of the OfflineStore test server (Fixtures/rails-server).
Rails.application.routes.draw do
  resources :customers do
    resources :orders, only: [:index, :create]
  end
  resources :orders
  resources :products
  match '*unmatched', to: 'application#route_not_found', via: :all
end
