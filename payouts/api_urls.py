"""API routes of the payouts app (included under /api/v1/)."""

from django.urls import path

from . import api

urlpatterns = [
    path("tournaments/<int:pk>/payouts/", api.PayoutsSummaryView.as_view(), name="api-payouts"),
    path("tournaments/<int:pk>/payouts/pool/", api.PoolView.as_view(), name="api-payouts-pool"),
    path("tournaments/<int:pk>/payouts/table/", api.TableView.as_view(), name="api-payouts-table"),
    path("tournaments/<int:pk>/payouts/table/propose/", api.TableProposeView.as_view(), name="api-payouts-table-propose"),
    path("tournaments/<int:pk>/payouts/table/lock/", api.TableLockView.as_view(), name="api-payouts-table-lock"),
    path("tournaments/<int:pk>/payouts/table/unlock/", api.TableUnlockView.as_view(), name="api-payouts-table-unlock"),
    path("tournaments/<int:pk>/payouts/table/template/", api.TableTemplateView.as_view(), name="api-payouts-table-template"),
    path("tournaments/<int:pk>/payouts/deal/calculate/", api.DealCalculatorView.as_view(), name="api-deal-calculate"),
    path("tournaments/<int:pk>/payouts/deals/", api.DealsView.as_view(), name="api-deals"),
    path("tournaments/<int:pk>/payouts/signoff/", api.SignoffView.as_view(), name="api-signoff"),
    path("tournaments/<int:pk>/payouts/satellite/", api.SatelliteView.as_view(), name="api-satellite"),
    path("tournaments/<int:pk>/payouts/satellite/complete/", api.SatelliteCompleteView.as_view(), name="api-satellite-complete"),
    path("tournaments/<int:pk>/payouts/side-pools/", api.SidePoolsView.as_view(), name="api-side-pools"),
    path("tournaments/<int:pk>/payouts/reports/<slug:name>/", api.ReportView.as_view(), name="api-payouts-report"),
    path("tournaments/<int:pk>/results/", api.ResultsSheetView.as_view(), name="api-payouts-results"),
    path("tournaments/<int:pk>/bounties/", api.BountiesView.as_view(), name="api-bounties"),
    path("tournaments/<int:pk>/bounties/pay/", api.BountyPayView.as_view(), name="api-bounties-pay"),
    path("tournaments/<int:pk>/bounties/returned/", api.BountyReturnView.as_view(), name="api-bounties-returned"),
    path("tournaments/<int:pk>/bounties/envelopes/", api.EnvelopesView.as_view(), name="api-bounties-envelopes"),
    path("payouts/templates/", api.TemplatesView.as_view(), name="api-payout-templates"),
    path("payouts/deals/<int:pk>/<slug:op>/", api.DealActionView.as_view(), name="api-deal-action"),
    path("payouts/side-pools/<int:pk>/<slug:op>/", api.SidePoolActionView.as_view(), name="api-side-pool-action"),
    path("jackpot/", api.JackpotView.as_view(), name="api-jackpot"),
    path("tournaments/<int:pk>/jackpot/claims/", api.JackpotClaimView.as_view(), name="api-jackpot-claim"),
    path("jackpot/claims/<int:pk>/pay/", api.JackpotPayView.as_view(), name="api-jackpot-pay"),
    path("payouts/due/", api.DueView.as_view(), name="api-payouts-due"),
    path("payouts/pay/", api.PayView.as_view(), name="api-payouts-pay"),
    path("payouts/slips/<int:number>/", api.SlipView.as_view(), name="api-payouts-slip"),
    path("payouts/tickets/", api.TicketsView.as_view(), name="api-tickets"),
    path("payouts/tickets/<int:pk>/redeem/", api.TicketRedeemView.as_view(), name="api-ticket-redeem"),
]
